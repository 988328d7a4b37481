import fs from "node:fs";
import path from "node:path";
import { count } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import type { Db } from "../db/client";
import { clinics } from "../db/schema";
import { outboxConfirmToken } from "../features/auth/registration.service";
import { DEMO_CLINIC } from "./demo-content";
import { type DemoSeedResult, type SeedOptions, seedDemo } from "./seed-demo";
import { injectTransport } from "./seed-http";

// `npm run demo`: the demo clinic is created once, in an empty database, and its passwords are shown once.

const MARKER = "demo-seeded";

export type DemoStart =
  | { status: "seeded"; result: DemoSeedResult }
  | { status: "ready" }
  | { status: "refused"; reason: string };

export class DemoStartError extends Error {}

/**
 * Seeds the demo clinic when the database holds no clinic yet; otherwise says why not. A marker file in the
 * data directory tells a finished demo from an interrupted one (or from a real clinic's database).
 */
export async function prepareDemo(
  deps: { app: FastifyInstance; db: Db; dataDir: string },
  options: Omit<SeedOptions, "registrationToken"> = {},
): Promise<DemoStart> {
  const marker = path.join(deps.dataDir, MARKER);
  const [row] = await deps.db.select({ n: count() }).from(clinics);
  if ((row?.n ?? 0) > 0) {
    if (fs.existsSync(marker)) return { status: "ready" };
    return {
      status: "refused",
      reason: `the database already holds clinics that are not a finished demo; the demo clinic is only created in an empty database (delete ${deps.dataDir} to start the demo afresh)`,
    };
  }
  let result: DemoSeedResult;
  try {
    result = await seedDemo(injectTransport(deps.app), {
      ...options,
      registrationToken: (email) => outboxConfirmToken(deps.dataDir, email),
    });
  } catch (error) {
    throw new DemoStartError(
      `Setting up the demo clinic failed: ${(error as Error).message}. Delete ${deps.dataDir} and run npm run demo again.`,
    );
  }
  // No secret in it: only when, so that the next start knows the demo is complete.
  fs.writeFileSync(marker, `${new Date().toISOString()}\n`, { mode: 0o600 });
  return { status: "seeded", result };
}

/** The lines printed at the first demo start, the only time the passwords are ever shown. */
export function describeDemoStart(start: DemoStart): string {
  if (start.status === "refused") return `Demo mode: not seeding: ${start.reason}.\n`;
  if (start.status === "ready") {
    return `Demo mode: "${DEMO_CLINIC.name}" is ready. Sign in with the passwords printed at its first start (they are not stored anywhere in clear); to get new ones, delete the demo data directory and run npm run demo again.\n`;
  }
  const { result } = start;
  const width = Math.max(...result.accounts.map((a) => a.email.length));
  const lines = [
    "",
    `Demo clinic "${DEMO_CLINIC.name}" is ready (${result.reports.length} reports, seeded in ${(result.durationMs / 1000).toFixed(0)} s).`,
    "Sign in with:",
    ...result.accounts.map((a) => `  ${a.role.padEnd(12)} ${a.email.padEnd(width)}  password: ${a.password}`),
    "These passwords are shown only this once and are not stored anywhere in clear: note them now.",
    "",
  ];
  return `${lines.join("\n")}\n`;
}
