import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { count } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { openDatabase } from "../db/client";
import { clinics, users } from "../db/schema";

const root = path.resolve(import.meta.dirname, "../..");
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "sonoscribe-normal-start-"));
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

/** Runs the real server entry point until it listens, then stops it; answers what it printed. */
function startAndStop(env: NodeJS.ProcessEnv): Promise<{ stdout: string; code: number | null }> {
  return new Promise((resolve, reject) => {
    const server = spawn(process.execPath, ["--import", "tsx", path.join(root, "server/main.ts")], {
      cwd: root,
      env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    const timer = setTimeout(() => {
      server.kill("SIGKILL");
      reject(new Error(`server did not start: ${stderr}`));
    }, 120_000);
    server.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
      if (stdout.includes("Sonoscribe is running")) server.kill("SIGTERM");
    });
    server.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    server.on("exit", (code) => {
      clearTimeout(timer);
      resolve({ stdout, code });
    });
  });
}

describe("a normal start (without --demo)", () => {
  it("creates no demo clinic, no accounts and prints no passwords", async () => {
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: "0",
      LOG_LEVEL: "warn",
      NODE_ENV: "test",
    };
    // Even a developer's shell with these set must not turn a plain start into a demo or another database.
    for (const key of ["SONOSCRIBE_DEMO", "DATABASE_URL", "LLM_BASE_URL", "LLM_MODEL"]) delete env[key];
    const { stdout, code } = await startAndStop(env);
    expect(stdout).toContain("Sonoscribe is running");
    expect(stdout).not.toMatch(/demo|password/i);
    expect(code).toBe(0);

    expect(fs.existsSync(path.join(dataDir, "demo-seeded"))).toBe(false);
    const database = await openDatabase({ dataDir });
    try {
      const [clinicCount] = await database.db.select({ n: count() }).from(clinics);
      const [userCount] = await database.db.select({ n: count() }).from(users);
      expect(clinicCount?.n).toBe(0);
      expect(userCount?.n).toBe(0);
    } finally {
      await database.close();
    }
  }, 180_000);
});
