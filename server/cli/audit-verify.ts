import { pathToFileURL } from "node:url";
import { type Config, ConfigError, loadConfig } from "../config";
import { openDatabase } from "../db/client";
import { DirectoryLockedError } from "../db/directory-lock";
import { verifyAuditChain } from "../platform/audit";
import { AnchorFileError, anchorPath, readAnchor } from "../platform/audit-anchor";
import {
  type Checkpoint,
  CheckpointFileError,
  compareWithCheckpoints,
  readCheckpoints,
} from "../platform/audit-checkpoints";
import { loadSecrets } from "../platform/secrets";

/**
 * `npm run audit:verify`: walks the audit chain of the configured database with its key and names the first row
 * that was changed, or that follows a removed row, and compares the chain with its head anchor (the newest
 * events removed: a cut tail) and with every signed daily checkpoint (events removed or rewritten before the
 * latest checkpoint, or an anchor rolled back or deleted). Exit 0 when intact, 1 when broken, 2 when it cannot run.
 */
export async function runAuditVerify(config: Config, out: (line: string) => void): Promise<number> {
  const { auditKey } = loadSecrets(config.dataDir, config);
  let anchor: ReturnType<typeof readAnchor>;
  let checkpoints: Checkpoint[];
  try {
    anchor = readAnchor(config.dataDir, auditKey);
    checkpoints = readCheckpoints(config.auditCheckpointDir, auditKey);
  } catch (error) {
    if (!(error instanceof AnchorFileError || error instanceof CheckpointFileError)) throw error;
    out(`BROKEN: ${error.message}.`);
    return 1;
  }
  const latest = checkpoints.at(-1);
  if (latest && !anchor) {
    out(
      `BROKEN: the head anchor (${anchorPath(config.dataDir)}) is missing, but ${checkpoints.length} daily checkpoints exist (the latest, ${latest.day}, recorded ${latest.count} events): it was removed.`,
    );
    return 1;
  }
  if (latest && anchor && anchor.count < latest.count) {
    out(
      `BROKEN: the head anchor records ${anchor.count} events, fewer than the checkpoint of ${latest.day} (${latest.count}): it was rolled back.`,
    );
    return 1;
  }
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
    const result = await verifyAuditChain(database.db, anchor, auditKey);
    if (result.ok && !anchor && result.count > 0) {
      out(
        `UNCHECKED: the ${result.count} events verify, but there is no head anchor (${anchorPath(config.dataDir)}), so removed newest events would not show. Start the server once to write it.`,
      );
      return 1;
    }
    if (result.ok) {
      const differs = await compareWithCheckpoints(database.db, checkpoints);
      if (differs) {
        out(`BROKEN: ${differs}.`);
        return 1;
      }
      out(
        latest
          ? `OK: the audit chain is intact (${result.count} events) and matches its ${checkpoints.length} daily checkpoints (the latest of ${latest.day}).`
          : `OK: the audit chain is intact (${result.count} events).`,
      );
      return 0;
    }
    out(
      result.brokenAtId !== null && !result.reason.startsWith("the tail")
        ? `BROKEN: audit event ${result.brokenAtId} does not verify: ${result.reason}. ${result.count} events before it are intact.`
        : `BROKEN: ${result.reason}.`,
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
