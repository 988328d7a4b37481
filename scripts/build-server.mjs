// Compiles the server, the OCR child processes, the worker threads (the export render pool) and the CLIs (server/,
// domain/) to plain JavaScript in dist/node/, one output file per source file (the tree mirrored, so
// `new URL("./x.js", import.meta.url)` finds its neighbour), run with `node` in production. tsx stays for
// development and tests.
//
//   node scripts/build-server.mjs          build now
//   node scripts/build-server.mjs --check  build only when a source is newer than the last build
//
// The build goes to a temporary folder and replaces dist/node in one rename, so a process starting meanwhile never
// sees half a build.
import fs from "node:fs";
import path from "node:path";
import { build } from "esbuild";

const root = path.resolve(import.meta.dirname, "..");
const outDir = path.join(root, "dist/node");
const stamp = path.join(outDir, ".built");
const sourceDirs = ["server", "domain"].map((d) => path.join(root, d));
const isSource = (name) => /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) && !name.endsWith(".d.ts");

function sources() {
  const files = [];
  for (const dir of sourceDirs) {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
      if (entry.isFile() && isSource(entry.name)) files.push(path.join(entry.parentPath, entry.name));
    }
  }
  return files;
}

/** True when dist/node is missing or older than a source file (or than package.json / the lockfile). */
export function isStale() {
  if (!fs.existsSync(stamp)) return true;
  const builtAt = fs.statSync(stamp).mtimeMs;
  const inputs = [...sources(), path.join(root, "package-lock.json"), path.join(import.meta.filename)];
  return inputs.some((file) => fs.statSync(file, { throwIfNoEntry: false })?.mtimeMs > builtAt);
}

const resolveExtensions = [".ts", ".tsx", "/index.ts", "/index.tsx", ""];

/** Every import stays an import: packages as they are, relative paths to the compiled neighbour (`.js`). */
const keepImports = {
  name: "keep-imports",
  setup(b) {
    b.onResolve({ filter: /.*/ }, (args) => {
      if (args.kind === "entry-point") return undefined;
      if (!args.path.startsWith(".")) return { path: args.path, external: true };
      const base = path.resolve(args.resolveDir, args.path);
      const found = resolveExtensions
        .map((ext) => base + ext)
        .find((f) => fs.statSync(f, { throwIfNoEntry: false })?.isFile());
      if (!found) return { errors: [{ text: `Cannot resolve ${args.path} from ${args.importer}` }] };
      if (!isSource(found))
        return { errors: [{ text: `${args.importer} imports ${args.path}, which is not compiled` }] };
      let relative = path
        .relative(args.resolveDir, found)
        .replace(/\.tsx?$/, ".js")
        .split(path.sep)
        .join("/");
      if (!relative.startsWith(".")) relative = `./${relative}`;
      return { path: relative, external: true };
    });
  },
};

export async function buildServer() {
  const started = Date.now();
  const tmp = `${outDir}.tmp-${process.pid}`;
  fs.rmSync(tmp, { recursive: true, force: true });
  await build({
    entryPoints: sources(),
    outdir: tmp,
    outbase: root,
    bundle: true,
    plugins: [keepImports],
    platform: "node",
    format: "esm",
    target: "node20",
    sourcemap: "linked",
    logLevel: "warning",
  });
  fs.writeFileSync(path.join(tmp, "package.json"), '{ "type": "module" }\n');
  fs.writeFileSync(path.join(tmp, ".built"), new Date().toISOString());
  const old = `${outDir}.old-${process.pid}`;
  if (fs.existsSync(outDir)) fs.renameSync(outDir, old);
  fs.renameSync(tmp, outDir);
  fs.rmSync(old, { recursive: true, force: true });
  return Date.now() - started;
}

if (import.meta.filename === path.resolve(process.argv[1] ?? "")) {
  const checkOnly = process.argv.includes("--check");
  if (!checkOnly || isStale()) {
    const ms = await buildServer();
    if (!checkOnly || process.stderr.isTTY) console.error(`Compiled the server to dist/node in ${ms} ms`);
  }
}
