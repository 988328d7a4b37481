import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../platform/repo-root";

// Production runs the compiled JavaScript of scripts/build-server.mjs (npm start, the npm run CLIs).
const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, "../..");
const study = JSON.stringify({
  scanType: "Carotid Duplex",
  indication: "Left sided TIA",
  measurements: [{ site: "ICA_PROX", side: "right", parameter: "PSV", value: 250, unit: "cm/s" }],
});

function withStdin(args: string[], stdin: string) {
  const child = execFile(process.execPath, args, { cwd: root });
  child.stdin!.end(stdin);
  let stdout = "";
  child.stdout!.on("data", (chunk) => {
    stdout += chunk;
  });
  return new Promise<{ code: number | null; stdout: string }>((resolve) =>
    child.on("close", (code) => resolve({ code, stdout })),
  );
}

describe("compiled server (dist/node)", () => {
  beforeAll(async () => {
    await run(process.execPath, ["scripts/build-server.mjs", "--check"], { cwd: root });
  });

  it("mirrors the sources: the OCR child sits beside its runner and the repository root is the same", async () => {
    expect(fs.existsSync(path.join(root, "dist/node/server/ocr/ocr-child.js"))).toBe(true);
    expect(fs.existsSync(path.join(root, "dist/node/server/main.js"))).toBe(true);
    const compiled = await import(pathToFileURL(path.join(root, "dist/node/server/platform/repo-root.js")).href);
    expect(compiled.REPO_ROOT).toBe(REPO_ROOT);
    expect(REPO_ROOT).toBe(root);
  });

  it("a CLI run by scripts/run.mjs prints what it prints under tsx", async () => {
    const script = "server/cli/generate-report.ts";
    const compiled = await withStdin(["scripts/run.mjs", script, "-"], study);
    const tsx = await withStdin(["--import", "tsx", script, "-"], study);
    expect(compiled.code).toBe(0);
    expect(compiled.stdout).toBe(tsx.stdout);
    expect(JSON.parse(compiled.stdout).studyType).toBe("Carotid Duplex");
  });
});
