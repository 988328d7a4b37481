// `npm start`: builds the web client when it is missing or older than its sources, then runs the server.
// `npm start -- --demo` (or `npm run demo`) runs with the separate demo data directory and the demo clinic.
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const builtIndex = path.join(root, "dist/web/index.html");

function newestMtime(dir) {
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) newest = Math.max(newest, fs.statSync(path.join(entry.parentPath, entry.name)).mtimeMs);
  }
  return newest;
}

const sources = [path.join(root, "web"), path.join(root, "domain")];
const builtAt = fs.existsSync(builtIndex) ? fs.statSync(builtIndex).mtimeMs : 0;
if (sources.some((dir) => newestMtime(dir) > builtAt)) {
  console.log("Building the web client...");
  const build = spawnSync("npx", ["vite", "build", "--logLevel", "warn"], { cwd: root, stdio: "inherit" });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

const demo = process.argv.includes("--demo");
const env = { ...process.env };
if (demo) {
  env.SONOSCRIBE_DEMO = "1";
  env.DATA_DIR ??= path.join(root, "demo-data");
}
const server = spawn(process.execPath, ["--import", "tsx", path.join(root, "server/main.ts")], {
  cwd: root,
  env,
  stdio: "inherit",
});
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => server.kill(signal));
server.on("exit", (code) => process.exit(code ?? 0));
