import { spawn } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { draftSchema } from "../../domain/contracts/study";

const root = join(import.meta.dirname, "..", "..");
const script = join(root, "server", "cli", "generate-report.ts");

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function run(command: string, args: string[], stdin?: string): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: root, stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => {
      stdout += chunk;
    });
    child.stderr.on("data", (chunk) => {
      stderr += chunk;
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(stdin ?? "");
  });
}

const cli = (args: string[], stdin?: string) => run(process.execPath, ["--import", "tsx", script, ...args], stdin);

const carotid = {
  scanType: "Carotid Duplex",
  indication: "Left sided TIA",
  measurements: [{ site: "ICA_PROX", side: "right", parameter: "PSV", value: 250, unit: "cm/s" }],
  observations: [{ site: "ICA", side: "right", finding: "plaque" }],
};

let dir = "";
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "generate-report-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("generate-report command", () => {
  it("prints one draft as JSON for a study file", async () => {
    const file = join(dir, "carotid.json");
    await writeFile(file, JSON.stringify(carotid));
    const result = await cli([file]);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe("");
    const draft = draftSchema.parse(JSON.parse(result.stdout));
    expect(draft.studyType).toBe("Carotid Duplex");
    expect(draft.indication).toBe("Left sided TIA");
    expect(draft.conclusions).toEqual([
      expect.objectContaining({ site: "ICA", side: "right", category: "carotid_stenosis", grade: "70_99" }),
    ]);
    expect(draft.findings).toContain("Right internal carotid artery: proximal PSV 250 cm/s");
    // Issue 26: the results that need a call, each with the rule that flagged it.
    expect(draft.criticalResults).toEqual([
      expect.objectContaining({ rule: "carotid_severe", site: "ICA", side: "right", grade: "70_99" }),
    ]);
  });

  it("reads standard input for -", async () => {
    const study = { scanType: "Abdominal Aorta", measurements: [{ site: "AO", parameter: "DIAMETER_MM", value: 52 }] };
    const result = await cli(["-"], JSON.stringify(study));
    expect(result.code).toBe(0);
    const draft = JSON.parse(result.stdout);
    expect(draft.conclusions[0]).toMatchObject({ site: "AO", side: null, grade: "aneurysm_large" });
    expect(draft.impression).toContain("every 6 months");
    expect(draft.criticalResults).toEqual([]);
  });

  it("selects a criteria set", async () => {
    const study = { ...carotid, measurements: [{ site: "ICA", side: "right", parameter: "PSV", value: 150 }] };
    const strict = await cli(["--criteria-set", "carotid-sru-strict", "-"], JSON.stringify(study));
    expect(JSON.parse(strict.stdout).conclusions[0].grade).toBe("lt50");
    const standard = await cli(["-"], JSON.stringify(study));
    expect(JSON.parse(standard.stdout).conclusions[0].grade).toBe("50_69");
  });

  it("writes British spelling with --spelling en-GB", async () => {
    const study = { scanType: "Abdominal Aorta", measurements: [{ site: "AO", parameter: "DIAMETER_MM", value: 20 }] };
    const gb = await cli(["--spelling", "en-GB", "-"], JSON.stringify(study));
    expect(JSON.parse(gb.stdout).impression).toContain("normal calibre");
    const bad = await cli(["--spelling", "fr", "-"], JSON.stringify(study));
    expect(bad.code).toBe(2);
  });

  it("exits 2 with one line naming the bad field for invalid input", async () => {
    const bad = { ...carotid, measurements: [{ site: "ICA", side: "right", parameter: "PSV", value: "250" }] };
    const result = await cli(["-"], JSON.stringify(bad));
    expect(result.code).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr.trimEnd().split("\n")).toHaveLength(1);
    expect(result.stderr).toContain("measurements[0].value: expected number");
  });

  it.each([
    [{ ...carotid, scanType: "Carotid" }, "scanType: expected one of"],
    [
      { ...carotid, observations: [{ site: "XYZ", side: "left", finding: "plaque" }] },
      "observations[0].site: unknown site code",
    ],
    [{ ...carotid, observations: [{ site: "ICA", side: "up", finding: "plaque" }] }, "observations[0].side"],
    [
      { ...carotid, measurements: [{ site: "ICA", side: "left", parameter: "VELOCITY", value: 1 }] },
      "measurements[0].parameter",
    ],
  ])("exits 2 naming the field: %#", async (study, message) => {
    const result = await cli(["-"], JSON.stringify(study));
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(message);
  });

  it("accepts a file saved with a UTF-8 byte-order mark", async () => {
    const file = join(dir, "bom.json");
    await writeFile(file, `\uFEFF${JSON.stringify(carotid)}`, "utf8");
    const result = await cli([file]);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout).conclusions[0].grade).toBe("70_99");
    const piped = await cli(["-"], `\uFEFF${JSON.stringify(carotid)}`);
    expect(piped.code).toBe(0);
  });

  it("says that 1e999 is too large rather than 'expected number, received number'", async () => {
    const text = JSON.stringify(carotid).replace('"value":250', '"value":1e999');
    const result = await cli(["-"], text);
    expect(result.code).toBe(2);
    expect(result.stderr.trimEnd()).toBe(
      "generate-report: measurements[0].value: the number is too large to be a measurement (it reads as infinity); write the value as measured",
    );
  });

  it("exits 2 for text that is not JSON", async () => {
    const result = await cli(["-"], "{ not json");
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^generate-report: invalid JSON/);
  });

  it("fails with one clear line for a file that does not exist", async () => {
    const result = await cli([join(dir, "missing.json")]);
    expect(result.code).not.toBe(0);
    expect(result.stdout).toBe("");
    expect(result.stderr.trimEnd().split("\n")).toHaveLength(1);
    expect(result.stderr).toContain("missing.json: no such file");
  });

  it("is wired to npm run -s generate-report", async () => {
    const file = join(dir, "via-npm.json");
    await writeFile(file, JSON.stringify(carotid));
    const result = await run("npm", ["run", "-s", "generate-report", "--", file]);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout).conclusions[0].grade).toBe("70_99");
  });
});
