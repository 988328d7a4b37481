// Runs a server-side entry (the server, a CLI) as compiled JavaScript with plain Node:
//   node scripts/run.mjs server/cli/ocr.ts ARGS...
// dist/node is compiled again first when a source is newer than it (scripts/build-server.mjs; about 1 s), so a
// command never runs stale code after an edit. The compiled module is imported in this process with argv as if it
// had been started directly (argv[1] is the compiled file), so no second Node process starts.
import path from "node:path";
import { pathToFileURL } from "node:url";
import { buildServer, isStale } from "./build-server.mjs";

const root = path.resolve(import.meta.dirname, "..");
const [source, ...args] = process.argv.slice(2);
if (!source || !/\.tsx?$/.test(source)) {
  console.error("usage: node scripts/run.mjs server/PATH.ts [ARGS...]");
  process.exit(2);
}
if (isStale()) {
  const ms = await buildServer();
  if (process.stderr.isTTY) console.error(`Compiled the server to dist/node in ${ms} ms`);
}
const compiled = path.join(root, "dist/node", source.replace(/\.tsx?$/, ".js"));
process.argv = [process.argv[0], compiled, ...args];
await import(pathToFileURL(compiled).href);
