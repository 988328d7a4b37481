import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from "fastify";
import { type AppDeps, buildApp, defaultDeps } from "../app";
import { type Config, loadConfig } from "../config";
import { FileStore } from "../platform/file-store";
import { createLogger } from "../platform/logger";
import { openTestDatabase } from "./test-database";

export type TestApp = {
  app: FastifyInstance;
  deps: AppDeps;
  dataDir: string;
  close(): Promise<void>;
};

/** The whole server on a fresh database, without a port: requests go through app.inject(). */
export async function createTestApp(
  env: Record<string, string> = {},
  overrides: Partial<AppDeps> = {},
  /** Adds routes before the app is sealed (for tests of cross-cutting behaviour). */
  extend?: (app: FastifyInstance) => void,
): Promise<TestApp> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "sonoscribe-test-"));
  const config: Config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: "silent", ...env });
  const database = await openTestDatabase();
  const fileStore = new FileStore(path.join(dataDir, "files"), randomBytes(32));
  const deps = defaultDeps({
    config,
    database,
    fileStore,
    logger: createLogger("silent"),
    webRoot: null,
    ...overrides,
  });
  const app = await buildApp(deps);
  extend?.(app);
  await app.ready();
  return {
    app,
    deps,
    dataDir,
    async close() {
      await app.close();
      await database.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

let counter = 0;
const unique = () => `${Date.now().toString(36)}${(counter++).toString(36)}${randomBytes(2).toString("hex")}`;

export type SignedIn = { cookie: string; email: string; password: string; userId: string; clinicId: number };

/** Registers a new clinic with its admin and signs in. */
export async function registerClinic(app: FastifyInstance, name = "Test Clinic"): Promise<SignedIn> {
  const email = `admin-${unique()}@clinic.test`;
  const password = "correct horse battery";
  const res = await app.inject({
    method: "POST",
    url: "/api/clinics/register",
    payload: { name, email, adminFirstName: "Ada", adminLastName: "Admin", password, city: "Springfield", state: "IL" },
  });
  if (res.statusCode !== 201) throw new Error(`register failed: ${res.statusCode} ${res.body}`);
  const body = res.json() as { clinicId: number; userId: string };
  return { ...(await signIn(app, email, password)), clinicId: body.clinicId, userId: body.userId };
}

export async function signIn(app: FastifyInstance, email: string, password: string) {
  const res = await app.inject({ method: "POST", url: "/api/auth/login", payload: { email, password } });
  if (res.statusCode !== 200) throw new Error(`login failed: ${res.statusCode} ${res.body}`);
  const cookie = res.cookies.find((c) => c.name === "sid");
  return { cookie: `sid=${cookie!.value}`, email, password };
}

/** app.inject with the session cookie of a signed-in user. */
export function as(app: FastifyInstance, user: { cookie: string }) {
  return (options: InjectOptions): Promise<LightMyRequestResponse> =>
    app.inject({ ...options, headers: { ...options.headers, cookie: user.cookie } });
}

/** A multipart body for app.inject (no extra dependency needed). */
export function multipart(
  parts: Array<{ name: string; value: string } | { name: string; filename: string; contentType: string; data: Buffer }>,
) {
  const boundary = `----sonoscribe${randomBytes(8).toString("hex")}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const head =
      "filename" in part
        ? `--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"; filename="${part.filename}"\r\nContent-Type: ${part.contentType}\r\n\r\n`
        : `--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"\r\n\r\n`;
    chunks.push(Buffer.from(head), "filename" in part ? part.data : Buffer.from(part.value), Buffer.from("\r\n"));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), headers: { "content-type": `multipart/form-data; boundary=${boundary}` } };
}
