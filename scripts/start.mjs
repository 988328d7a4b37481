// `npm start`: builds the web client when it is missing or older than its sources, compiles the server when
// dist/node is missing or older than its sources (scripts/build-server.mjs), then runs the compiled server with
// plain Node in this process.
// `npm start -- --demo` (or `npm run demo`) runs with the separate demo data directory and the demo clinic.
// `npm run serve` (--role=web) and `npm run worker` (--role=worker) run the web and the jobs apart, on the
// PostgreSQL of DATABASE_URL (docs/deploy.md).
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { buildServer, isStale } from "./build-server.mjs";

const root = path.resolve(import.meta.dirname, "..");
const builtIndex = path.join(root, "dist/web/index.html");

function newestMtime(dir) {
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) newest = Math.max(newest, fs.statSync(path.join(entry.parentPath, entry.name)).mtimeMs);
  }
  return newest;
}

const role = process.argv.find((arg) => arg.startsWith("--role="))?.slice("--role=".length);
const sources = [path.join(root, "web"), path.join(root, "domain")];
const builtAt = fs.existsSync(builtIndex) ? fs.statSync(builtIndex).mtimeMs : 0;
// A worker serves no pages.
if (role !== "worker" && sources.some((dir) => newestMtime(dir) > builtAt)) {
  console.log("Building the web client...");
  const build = spawnSync("npx", ["vite", "build", "--logLevel", "warn"], { cwd: root, stdio: "inherit" });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

if (isStale()) {
  console.log("Compiling the server...");
  await buildServer();
}

if (role) process.env.SONOSCRIBE_ROLE = role;
if (process.argv.includes("--demo")) {
  process.env.SONOSCRIBE_DEMO = "1";
  process.env.DATA_DIR ??= path.join(root, "demo-data");
}
const main = path.join(root, "dist/node/server/main.js");
process.argv = [process.argv[0], main];
await import(pathToFileURL(main).href);
