// A server on a fresh temporary data directory (PGlite), or on a fresh PostgreSQL database when
// TEST_DATABASE_URL is set, with the built client. The platform admin of the admin journeys is seeded and
// granted the role before the server starts (seed-platform-admin.ts).
import { spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";

const root = path.resolve(import.meta.dirname, "../..");
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "sonoscribe-e2e-"));
// The journeys read registration links from this server's outbox (it sends no e-mail): say where it is.
const pointer = path.join(os.tmpdir(), `sonoscribe-e2e-${process.env.PORT}.datadir`);
fs.writeFileSync(pointer, dataDir);
const env = {
  ...process.env,
  DATA_DIR: dataDir,
  HOST: "127.0.0.1",
  LOG_LEVEL: "warn",
  // Every journey registers its own clinic from 127.0.0.1.
  REGISTRATIONS_PER_HOUR: "1000",
};
if (process.env.TEST_DATABASE_URL) {
  const name = `sonoscribe_e2e_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(process.env.TEST_DATABASE_URL);
  url.pathname = `/${name}`;
  env.DATABASE_URL = url.toString();
}
const seeded = spawnSync(process.execPath, ["--import", "tsx", path.join(root, "e2e/support/seed-platform-admin.ts")], {
  cwd: root,
  env,
  stdio: "inherit",
});
if (seeded.status !== 0) process.exit(seeded.status ?? 1);
// The compiled server, as `npm start` runs it (compiled again first when a source changed).
const server = spawn(process.execPath, [path.join(root, "scripts/run.mjs"), "server/main.ts"], {
  cwd: root,
  env,
  stdio: "inherit",
});
const stop = () => {
  server.kill("SIGTERM");
  fs.rmSync(dataDir, { recursive: true, force: true });
  fs.rmSync(pointer, { force: true });
};
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
server.on("exit", (code) => process.exit(code ?? 0));
