import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

/**
 * Files the OCR children derive from installed packages (the name list, the folded model graphs) and would
 * otherwise build again in every child at every start: built once, kept in node_modules/.cache/sonoscribe-ocr
 * (beside the packages they come from, so a fresh `npm install` starts clean), named by a hash of everything they
 * are made from: the input files and the source of the code that makes them. Nothing is downloaded.
 * Where that folder cannot be written, the file is built in memory each time, as before.
 */
export function cacheDir(): string {
  const require = createRequire(import.meta.url);
  // Any installed package finds node_modules; humannames is one the OCR reads anyway.
  const nodeModules = path.dirname(path.dirname(require.resolve("humannames/package.json")));
  return path.join(nodeModules, ".cache", "sonoscribe-ocr");
}

/** The source file of a module (`import.meta.url`): part of a cache key, so changed code builds afresh. */
export const moduleSource = (url: string): string => fileURLToPath(url);

/**
 * The cached file made by `build` from `inputs` (files, among them the builder's own source), built and written
 * first when missing into `dir`: its path, or the bytes themselves when the folder cannot be written. `name` is for
 * people reading the folder.
 */
export function cachedFile(
  name: string,
  inputs: string[],
  build: () => Uint8Array,
  dir = cacheDir(),
): { path: string; bytes?: never } | { bytes: Uint8Array; path?: never } {
  const hash = createHash("sha256");
  for (const file of inputs) {
    const data = readFileSync(file);
    hash.update(`${data.length}:`).update(data);
  }
  const ext = path.extname(name);
  const target = path.join(dir, `${path.basename(name, ext)}-${hash.digest("hex").slice(0, 16)}${ext}`);
  if (existsSync(target)) return { path: target };
  const bytes = build();
  try {
    mkdirSync(dir, { recursive: true });
    // Written aside and renamed: a child reading at the same time sees the whole file or none.
    const partial = `${target}.${process.pid}.partial`;
    writeFileSync(partial, bytes);
    renameSync(partial, target);
    return { path: target };
  } catch {
    return { bytes };
  }
}
