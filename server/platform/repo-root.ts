import path from "node:path";
import { fileURLToPath } from "node:url";

const here = fileURLToPath(import.meta.url);
/**
 * The repository folder, where files that are not code live (migrations, models, fixtures, the built client). This
 * module is server/platform/repo-root.ts under tsx and dist/node/server/platform/repo-root.js once compiled
 * (scripts/build-server.mjs), so the compiled server reads the same files as the sources.
 */
export const REPO_ROOT = path.resolve(path.dirname(here), here.endsWith(".ts") ? "../.." : "../../../..");

/** A path inside the repository, given from its root ("server/db/migrations"). */
export const repoPath = (...parts: string[]) => path.join(REPO_ROOT, ...parts);
