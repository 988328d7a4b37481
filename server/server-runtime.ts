import fs from "node:fs";
import type { FastifyInstance } from "fastify";
import { type AppDeps, buildApp, defaultDeps } from "./app";
import type { Config } from "./config";
import { type Database, openDatabase } from "./db/client";
import { LocalDraftKeys } from "./features/auth/local-draft-key";
import { closeRenderPool } from "./features/exports/render-pool";
import { sweepUnreferencedFiles } from "./features/files/files.service";
import { repairInterruptedOcr, sweepLapsedOcr } from "./features/worksheets/ocr-jobs";
import { registerJobHandlers, sendStartupJobs } from "./jobs/handlers";
import { configureOcr } from "./ocr/ocr-runner";
import { shutdownOcr } from "./ocr/ocr-service";
import { onAuditRecorded, setAuditKey } from "./platform/audit";
import { AuditAnchor, takeDailyCheckpoint } from "./platform/audit-anchor";
import { openFileStore } from "./platform/open-file-store";
import { loadSecrets } from "./platform/secrets";

/** A started process: the web app (null in a worker), its dependencies, and how to stop it. */
export type Runtime = { app: FastifyInstance; deps: AppDeps; close(): Promise<void> };
export type WorkerRuntime = { deps: AppDeps; close(): Promise<void> };

/**
 * Opens what every role needs (database, file store, audit anchor) and, where this process works jobs (the
 * all-in-one server and workers, decision 023), the queue's workers and schedules (report deliveries among them).
 */
async function openProcess(config: Config) {
  fs.mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
  const secrets = loadSecrets(config.dataDir, {
    fileEncryptionKey: config.fileEncryptionKey,
    auditKey: config.auditKey,
  });
  setAuditKey(secrets.auditKey);
  configureOcr(config.ocr);
  const database: Database = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    pgliteSharedBuffersMb: config.pgliteSharedBuffersMb,
  });
  const fileStore = openFileStore(config, secrets.fileKey);
  const localDraftKeys = LocalDraftKeys.fromFileKey(secrets.fileKey);
  const deps = defaultDeps({ config, database, fileStore, localDraftKeys });
  const anchor = await AuditAnchor.open(database.db, config.dataDir, secrets.auditKey, (reason) =>
    deps.logger.error({ reason }, "the audit chain does not verify; its head anchor is not moved"),
  );
  const stopAnchoring = onAuditRecorded(() => anchor.schedule());
  // The embedded database's directory lock means no other instance can be mid-upload to its own folder, so every
  // unreferenced file is a leftover; a shared PostgreSQL or bucket may have uploads in flight elsewhere, so only
  // old ones go.
  const shared = Boolean(config.databaseUrl) || config.fileStore.kind === "s3";
  const swept = await sweepUnreferencedFiles(database.db, fileStore, shared ? 3_600_000 : 0);
  if (swept > 0) deps.logger.info({ swept }, "removed files left by interrupted uploads");
  deps.logger.info({ fileStore: fileStore.location }, "files are kept here");

  let stopSweeping = () => {};
  if (config.role !== "web") {
    registerJobHandlers(deps);
    deps.jobQueue.handle("audit-checkpoint", () =>
      takeDailyCheckpoint(anchor, config.auditCheckpointDir, secrets.auditKey, deps.logger),
    );
    await deps.jobQueue.start();
    const repaired = await repairInterruptedOcr(
      { db: database.db, store: fileStore, jobs: deps.jobQueue },
      { embedded: database.kind === "pglite" },
    );
    if (repaired > 0) deps.logger.info({ repaired }, "OCR interrupted by a stopped process is retried or failed");
    // A worker that died mid-read stops renewing its lease: its job is retried within a lease and a third.
    stopSweeping = sweepLapsedOcr({ db: database.db, jobs: deps.jobQueue }, config.ocrLeaseSeconds, (error) =>
      deps.logger.error({ err: error }, "the sweep of lapsed OCR leases failed"),
    );
    await sendStartupJobs(deps.jobQueue);
  }
  return {
    deps,
    /** Stops the process's parts after its web app (if any) has closed. */
    async close() {
      stopSweeping();
      await deps.jobQueue.stop();
      stopAnchoring();
      await anchor.close();
      await shutdownOcr();
      await closeRenderPool();
      await database.close();
      fileStore.close?.();
    },
  };
}

/** The web server (`npm start`: everything in one process; `npm run serve`: the web only). */
export async function startRuntime(config: Config): Promise<Runtime> {
  if (config.role === "worker") throw new Error("startRuntime: a worker has no web app (use startWorker)");
  const opened = await openProcess(config);
  const app = await buildApp(opened.deps);
  return {
    app,
    deps: opened.deps,
    async close() {
      await app.close();
      await opened.close();
    },
  };
}

/** An OCR and jobs worker (`npm run worker`): no HTTP, any number beside the web processes. */
export async function startWorker(config: Config): Promise<WorkerRuntime> {
  if (config.role !== "worker") throw new Error("startWorker: SONOSCRIBE_ROLE must be worker");
  return openProcess(config);
}
