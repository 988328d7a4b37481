import { pathToFileURL } from "node:url";
import { type Config, ConfigError, loadConfig } from "../config";
import { openDatabase } from "../db/client";
import { DirectoryLockedError } from "../db/directory-lock";
import { setAuditKey } from "../platform/audit";
import { grantPlatformAdmin, revokePlatformAdmin } from "../platform/platform-admin";
import { loadSecrets } from "../platform/secrets";

const USAGE = "Usage: npm run admin:grant -- EMAIL   or   npm run admin:revoke -- EMAIL";

/**
 * `npm run admin:grant -- EMAIL` / `npm run admin:revoke -- EMAIL`: platform administration is given only by
 * someone who can run commands on the server, to an account that already exists. Exit 0 done (or already so),
 * 1 no such account, 2 cannot run.
 */
export async function runAdminGrant(config: Config, args: string[], out: (line: string) => void): Promise<number> {
  const [mode, email] = args;
  if ((mode !== "grant" && mode !== "revoke") || !email || !email.includes("@")) {
    out(USAGE);
    return 2;
  }
  setAuditKey(loadSecrets(config.dataDir, config).auditKey);
  let database: Awaited<ReturnType<typeof openDatabase>>;
  try {
    database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  } catch (error) {
    if (error instanceof DirectoryLockedError) {
      out(
        `Cannot ${mode}: ${error.message} The embedded database allows one process: stop the server, then run again.`,
      );
      return 2;
    }
    throw error;
  }
  try {
    const result = await (mode === "grant" ? grantPlatformAdmin : revokePlatformAdmin)(database.db, email);
    if (result.status === "no_account") {
      out(
        `No account uses ${result.email}: the person registers (or accepts an invitation) first, then run this again.`,
      );
      return 1;
    }
    out(
      mode === "grant"
        ? `${result.email} is now a platform administrator (two-factor sign-in is still required).`
        : `${result.email} is no longer a platform administrator.`,
    );
    return 0;
  } finally {
    await database.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  try {
    process.exitCode = await runAdminGrant(loadConfig(), process.argv.slice(2), (line) =>
      process.stdout.write(`${line}\n`),
    );
  } catch (error) {
    process.stderr.write(`${error instanceof ConfigError ? error.message : String(error)}\n`);
    process.exitCode = 2;
  }
}
