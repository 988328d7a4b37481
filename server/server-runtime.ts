import fs from "node:fs";
import type { FastifyInstance } from "fastify";
import { type AppDeps, buildApp, defaultDeps } from "./app";
import type { Config } from "./config";
import { type Database, openDatabase } from "./db/client";
import { LocalDraftKeys } from "./features/auth/local-draft-key";
import { DeliveryWorker } from "./features/delivery/delivery-worker";
import { sweepUnreferencedFiles } from "./features/files/files.service";
import { failInterruptedOcr } from "./features/worksheets/worksheets.service";
import { configureOcr } from "./ocr/ocr-runner";
import { shutdownOcr } from "./ocr/ocr-service";
import { onAuditRecorded, setAuditKey } from "./platform/audit";
import { AuditAnchor, takeDailyCheckpoint } from "./platform/audit-anchor";
import { scheduleDailyCheckpoints } from "./platform/audit-checkpoints";
import { openFileStore } from "./platform/open-file-store";
import { loadSecrets } from "./platform/secrets";

export type Runtime = { app: FastifyInstance; deps: AppDeps; close(): Promise<void> };

/** Opens everything the server needs from a config; used by main and by tools that need the full app. */
export async function startRuntime(config: Config): Promise<Runtime> {
  fs.mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
  const secrets = loadSecrets(config.dataDir, {
    fileEncryptionKey: config.fileEncryptionKey,
    auditKey: config.auditKey,
  });
  setAuditKey(secrets.auditKey);
  configureOcr(config.ocr);
  const database: Database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  await failInterruptedOcr(database.db);
  const fileStore = openFileStore(config, secrets.fileKey);
  const localDraftKeys = LocalDraftKeys.fromFileKey(secrets.fileKey);
  const deps = defaultDeps({ config, database, fileStore, localDraftKeys });
  const anchor = await AuditAnchor.open(database.db, config.dataDir, secrets.auditKey, (reason) =>
    deps.logger.error({ reason }, "the audit chain does not verify; its head anchor is not moved"),
  );
  const stopAnchoring = onAuditRecorded(() => anchor.schedule());
  const stopCheckpoints = scheduleDailyCheckpoints({
    dir: config.auditCheckpointDir,
    take: () => takeDailyCheckpoint(anchor, config.auditCheckpointDir, secrets.auditKey, deps.logger),
  });
  // The embedded database's directory lock means no other instance can be mid-upload to its own folder, so every
  // unreferenced file is a leftover; a shared PostgreSQL or bucket may have uploads in flight elsewhere, so only
  // old ones go.
  const shared = Boolean(config.databaseUrl) || config.fileStore.kind === "s3";
  const swept = await sweepUnreferencedFiles(database.db, fileStore, shared ? 3_600_000 : 0);
  if (swept > 0) deps.logger.info({ swept }, "removed files left by interrupted uploads");
  deps.logger.info({ fileStore: fileStore.location }, "files are kept here");
  const app = await buildApp(deps);
  // Signed reports to the clinics' FHIR servers and MLLP listeners (issue 28): a loop over a durable table.
  const deliveries = new DeliveryWorker({
    db: database.db,
    fileStore,
    logger: deps.logger,
    delivery: config.delivery,
    timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
  });
  deliveries.start();
  return {
    app,
    deps,
    async close() {
      await deliveries.stop();
      await app.close();
      stopAnchoring();
      stopCheckpoints();
      await anchor.close();
      await shutdownOcr();
      await database.close();
      fileStore.close?.();
    },
  };
}
