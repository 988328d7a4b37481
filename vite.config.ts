import { gzipSync } from "node:zlib";
import tailwindcss from "@tailwindcss/vite";
import react from "@vitejs/plugin-react";
import { defineConfig, type Plugin } from "vite";

/** The JavaScript a first visit downloads (the entry and what it imports statically), gzipped, at most. */
const FIRST_LOAD_BUDGET_BYTES = 150_000;

/**
 * Fails the build when the first load grows past its budget, instead of a warning nobody reads: screens are
 * split per route (web/src/app/routes.tsx), and a heavy import into the shell shows up here.
 */
function firstLoadBudget(): Plugin {
  return {
    name: "first-load-budget",
    apply: "build",
    generateBundle(_options, bundle) {
      const chunks = new Map(
        Object.values(bundle).flatMap((out) => (out.type === "chunk" ? [[out.fileName, out] as const] : [])),
      );
      const seen = new Set<string>();
      const visit = (fileName: string) => {
        if (seen.has(fileName)) return;
        seen.add(fileName);
        for (const imported of chunks.get(fileName)?.imports ?? []) visit(imported);
      };
      for (const chunk of chunks.values()) if (chunk.isEntry) visit(chunk.fileName);
      const bytes = [...seen].reduce(
        (sum, name) => sum + gzipSync(chunks.get(name)?.code ?? "", { level: 9 }).length,
        0,
      );
      const summary = `first load: ${(bytes / 1000).toFixed(1)} kB of JavaScript gzipped in ${seen.size} files (budget ${FIRST_LOAD_BUDGET_BYTES / 1000} kB)`;
      if (bytes > FIRST_LOAD_BUDGET_BYTES) this.error(summary);
      this.info(summary);
    },
  };
}

export default defineConfig({
  root: "web",
  plugins: [react(), tailwindcss(), firstLoadBudget()],
  build: { outDir: "../dist/web", emptyOutDir: true },
  server: { proxy: { "/api": "http://127.0.0.1:3000" } },
});
