import { ConfigError, loadConfig } from "./config";
import { DirectoryLockedError } from "./db/directory-lock";
import { DemoStartError, describeDemoStart, prepareDemo } from "./demo/demo-start";
import { startRuntime, startWorker, type WorkerRuntime } from "./server-runtime";

function closeOnSignals(runtime: WorkerRuntime): void {
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    runtime.deps.logger.info({ signal }, "shutting down");
    await runtime.close();
    process.exit(0);
  };
  process.on("SIGINT", () => void shutdown("SIGINT"));
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
}

async function main(): Promise<void> {
  const config = loadConfig();
  if (config.role === "worker") {
    const worker = await startWorker(config);
    for (const warning of config.warnings) worker.deps.logger.warn(warning);
    closeOnSignals(worker);
    process.stdout.write("\nSonoscribe worker is running (OCR and scheduled jobs from PostgreSQL)\n\n");
    return;
  }
  const runtime = await startRuntime(config);
  for (const warning of config.warnings) runtime.deps.logger.warn(warning);
  closeOnSignals(runtime);

  // `npm run demo` only: never in a normal start. Seeds before listening so nobody signs in to half a clinic.
  if (process.env.SONOSCRIBE_DEMO === "1") {
    const progress = (line: string) => process.stdout.write(`${line}\n`);
    const { app, deps } = runtime;
    const demo = await prepareDemo({ app, db: deps.database.db, dataDir: config.dataDir }, { progress });
    process.stdout.write(describeDemoStart(demo));
  }

  const address = await runtime.app.listen({ port: config.port, host: config.host });
  const shown = config.publicUrl ?? address.replace("127.0.0.1", "localhost");
  const storage = config.databaseUrl ? "PostgreSQL" : `embedded PostgreSQL in ${config.dataDir}`;
  const role = config.role === "web" ? ", web only: OCR and scheduled jobs run in `npm run worker`" : "";
  process.stdout.write(`\nSonoscribe is running at ${shown} (data: ${storage}${role})\n\n`);
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError || error instanceof DirectoryLockedError || error instanceof DemoStartError) {
    process.stderr.write(`${error.message}\n`);
  } else {
    process.stderr.write(`Sonoscribe could not start: ${error instanceof Error ? error.stack : String(error)}\n`);
  }
  process.exit(1);
});
