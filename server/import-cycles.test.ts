import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { valueImports } from "./test-support/value-imports";

/**
 * No module reachable from server/app.ts imports itself back at load time. A cycle makes a module's exports
 * undefined while the cycle loads: features once imported AppDeps and MAX_UPLOAD_BYTES from app.ts, which
 * imports every feature, and start-up crashed when a constant moved (decision 022). Type-only imports are erased
 * by the compiler and dynamic import() runs later, so neither can make a load-time cycle and neither is followed.
 */

const here = path.dirname(fileURLToPath(import.meta.url));

/** Every cycle met walking the value imports depth-first from `entry`, each as the chain of files. */
function importCycles(entry: string): { cycles: string[][]; modules: number } {
  const cycles: string[][] = [];
  const stack: string[] = [];
  const done = new Set<string>();
  const visit = (file: string) => {
    const at = stack.indexOf(file);
    if (at >= 0) return void cycles.push([...stack.slice(at), file]);
    if (done.has(file)) return;
    stack.push(file);
    for (const next of valueImports(file)) visit(next);
    stack.pop();
    done.add(file);
  };
  visit(entry);
  return { cycles, modules: done.size };
}

describe("imports", () => {
  it("has no load-time import cycle from server/app.ts", () => {
    const { cycles, modules } = importCycles(path.join(here, "app.ts"));
    const named = cycles.map((cycle) => cycle.map((file) => path.relative(path.join(here, ".."), file)).join(" -> "));
    expect(named).toEqual([]);
    // The walk really went through the features (a broken resolver would find no cycle and prove nothing).
    expect(modules).toBeGreaterThan(150);
  });

  it("finds a cycle when there is one", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cycle-check-"));
    try {
      fs.writeFileSync(path.join(dir, "a.ts"), 'import { b } from "./b";\nexport const a = b;\n');
      fs.writeFileSync(
        path.join(dir, "b.ts"),
        'import type { T } from "./c";\nimport { a } from "./a";\nexport const b = a;\n',
      );
      fs.writeFileSync(path.join(dir, "c.ts"), 'import { a } from "./a";\nexport type T = typeof a;\n');
      const { cycles } = importCycles(path.join(dir, "a.ts"));
      expect(cycles.map((cycle) => cycle.map((file) => path.basename(file)))).toEqual([["a.ts", "b.ts", "a.ts"]]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
