import { pathToFileURL } from "node:url";
import { type Config, ConfigError, loadConfig } from "../config";
import { openDatabase } from "../db/client";
import { DirectoryLockedError } from "../db/directory-lock";
import { verifyAuditChain } from "../platform/audit";

/**
 * `npm run audit:verify`: walks the audit chain of the configured database and names the first row that
 * was changed, or that follows a removed row. Exit 0 when intact, 1 when broken, 2 when it cannot run.
 */
export async function runAuditVerify(config: Config, out: (line: string) => void): Promise<number> {
  let database: Awaited<ReturnType<typeof openDatabase>>;
  try {
    database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  } catch (error) {
    if (error instanceof DirectoryLockedError) {
      out(`Cannot verify: ${error.message} The embedded database allows one process: stop the server, then run again.`);
      return 2;
    }
    throw error;
  }
  try {
    const result = await verifyAuditChain(database.db);
    if (result.ok) {
      out(`OK: the audit chain is intact (${result.count} events).`);
      return 0;
    }
    out(
      `BROKEN: audit event ${result.brokenAtId} does not verify: ${result.reason}. ${result.count} events before it are intact.`,
    );
    return 1;
  } finally {
    await database.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  try {
    process.exitCode = await runAuditVerify(loadConfig(), (line) => process.stdout.write(`${line}\n`));
  } catch (error) {
    process.stderr.write(`${error instanceof ConfigError ? error.message : String(error)}\n`);
    process.exitCode = 2;
  }
}
