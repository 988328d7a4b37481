import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Draft, studySchema } from "../../domain/contracts/study";
import { generateDraft } from "../../domain/report-engine/generate-draft";

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, "../..");
const fixtures = path.join(root, "fixtures/worksheets");
const script = path.join(root, "server/cli/worksheet-to-report.ts");

// No language model: the draft must be the engine's own, whatever the developer's shell has configured.
const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith("LLM_")));

async function cli(args: string[]) {
  try {
    const { stdout, stderr } = await run(process.execPath, ["--import", "tsx", script, ...args], {
      cwd: root,
      env,
      maxBuffer: 20 * 1024 * 1024,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

type Truth = {
  patientName: string;
  patientDob: string;
  examDate: string;
  impression: string;
  measurements: Array<{ vessel: string; side: "R" | "L"; param: string; value: number; unit: string }>;
};
const truth = JSON.parse(fs.readFileSync(path.join(fixtures, "ws-clean-000.json"), "utf8")) as Truth;

/** The grades the engine gives the fixture's true values: what the command must conclude from what it read. */
function expectedConclusions() {
  const study = studySchema.parse({
    scanType: "Carotid Duplex",
    measurements: truth.measurements.map((m) => ({
      // Row labels of the carotid sheet ("ICA Prox") are the site codes with a space ("ICA_PROX").
      site: m.vessel.toUpperCase().replace(/ /g, "_"),
      side: m.side === "R" ? "right" : "left",
      parameter: m.param,
      value: m.value,
      unit: m.unit,
    })),
  });
  return generateDraft(study).conclusions;
}

const work = fs.mkdtempSync(path.join(os.tmpdir(), "worksheet-to-report-"));
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

describe("worksheet-to-report on ws-clean-000.png (carotid, right ICA 70-99%)", () => {
  let json: { ocrResult: { patientName: string; patientDob: string; examDate: string }; draft: Draft };
  let pdfRun: Awaited<ReturnType<typeof cli>>;
  const pdf = path.join(work, "report.pdf");

  beforeAll(async () => {
    const jsonRun = await cli([path.join(fixtures, "ws-clean-000.png"), "--format", "json"]);
    expect(jsonRun.code, jsonRun.stderr).toBe(0);
    json = JSON.parse(jsonRun.stdout);
    pdfRun = await cli([path.join(fixtures, "ws-clean-000.png"), "--format", "pdf", "--out", pdf]);
  }, 300_000);

  it("reads the fixture's patient and dates", () => {
    expect(json.ocrResult).toMatchObject({
      patientName: truth.patientName,
      patientDob: truth.patientDob,
      examDate: truth.examDate,
    });
    expect(json.draft.studyType).toBe("Carotid Duplex");
  });

  it("concludes what the engine concludes from the ground truth, including the sheet's own impression", () => {
    const grades = (conclusions: Draft["conclusions"]) =>
      conclusions.map((c) => ({ site: c.site, side: c.side, category: c.category, grade: c.grade }));
    expect(grades(json.draft.conclusions)).toEqual(grades(expectedConclusions()));
    // The sheet says "R ICA PSV 345 cm/s c/w 70-99% stenosis".
    expect(truth.impression).toContain("70-99%");
    expect(json.draft.conclusions).toContainEqual(
      expect.objectContaining({ site: "ICA", side: "right", category: "carotid_stenosis", grade: "70_99" }),
    );
    expect(json.draft.impression).toContain("Right internal carotid artery: 70-99% stenosis");
  });

  it("writes a PDF with the default template that shows the patient and the impression", async () => {
    expect(pdfRun.code, pdfRun.stderr).toBe(0);
    // Not a terminal: nothing but errors on standard error, nothing on standard output.
    expect(pdfRun.stderr).toBe("");
    expect(pdfRun.stdout).toBe("");
    expect(fs.readFileSync(pdf).subarray(0, 5).toString()).toBe("%PDF-");
    const { stdout: text } = await run("pdftotext", ["-layout", pdf, "-"]);
    expect(text).toContain(truth.patientName);
    expect(text).toContain("Apr 15, 2002"); // no clinic here: the default locale, en-US
    expect(text).toMatch(/70-99% stenosis/);
    expect(text).toContain("DRAFT");
  });
});

describe("worksheet-to-report errors", () => {
  it("answers usage errors with one line and exit status 2", async () => {
    for (const args of [
      [],
      ["a.png", "--format", "pdf"],
      ["a.png", "--format", "html"],
      ["a.png", "--scan-type", "Knee"],
    ]) {
      const res = await cli(args);
      expect(res.code, args.join(" ")).toBe(2);
      expect(res.stderr.trim().split("\n")).toHaveLength(1);
      expect(res.stderr).toMatch(/^worksheet-to-report: /);
    }
  });

  it("answers a missing or unreadable file with one line and exit status 1", async () => {
    const missing = await cli([path.join(work, "nope.png")]);
    expect(missing).toMatchObject({ code: 1, stdout: "" });
    expect(missing.stderr).toMatch(/^worksheet-to-report: cannot read .*nope\.png: no such file\n$/);
    const notAnImage = path.join(work, "notes.txt");
    fs.writeFileSync(notAnImage, "not a worksheet");
    const bad = await cli([notAnImage]);
    expect(bad.code).toBe(1);
    expect(bad.stderr.trim().split("\n")).toHaveLength(1);
  }, 60_000);
});
