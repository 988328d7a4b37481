import fs from "node:fs";
import path from "node:path";
import ts from "typescript";

/**
 * A module's load-time imports, read from its source: type-only imports are erased by the compiler and dynamic
 * import() runs later, so neither is listed (import-cycles.test.ts, lazy-imports.test.ts).
 */

/** What a file imports or re-exports for its values: package names as written, relative modules as files. */
export function valueSpecifiers(file: string): string[] {
  const source = ts.createSourceFile(file, fs.readFileSync(file, "utf8"), ts.ScriptTarget.Latest, false);
  const specifiers: string[] = [];
  for (const statement of source.statements) {
    if (ts.isImportDeclaration(statement)) {
      const clause = statement.importClause;
      if (clause?.isTypeOnly) continue;
      const bindings = clause?.namedBindings;
      // `import { type A, type B } from` is erased too; a bare `import "x"` runs x.
      const onlyTypes =
        clause &&
        !clause.name &&
        bindings &&
        ts.isNamedImports(bindings) &&
        bindings.elements.length > 0 &&
        bindings.elements.every((element) => element.isTypeOnly);
      if (!onlyTypes) specifiers.push((statement.moduleSpecifier as ts.StringLiteral).text);
    } else if (ts.isExportDeclaration(statement) && statement.moduleSpecifier && !statement.isTypeOnly) {
      const clause = statement.exportClause;
      const onlyTypes = clause && ts.isNamedExports(clause) && clause.elements.every((element) => element.isTypeOnly);
      if (!onlyTypes) specifiers.push((statement.moduleSpecifier as ts.StringLiteral).text);
    }
  }
  return specifiers.flatMap((specifier) => (specifier.startsWith(".") ? resolve(file, specifier) : [specifier]));
}

/** The relative modules (files) a file imports or re-exports for their values. */
export const valueImports = (file: string): string[] => valueSpecifiers(file).filter((s) => path.isAbsolute(s));

function resolve(from: string, specifier: string): string[] {
  const base = path.resolve(path.dirname(from), specifier);
  const found = [base, `${base}.ts`, `${base}.tsx`, path.join(base, "index.ts")].find(
    (candidate) => fs.existsSync(candidate) && fs.statSync(candidate).isFile() && /\.tsx?$/.test(candidate),
  );
  return found ? [found] : [];
}
