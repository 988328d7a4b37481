// The job queue (decision 023) on the embedded PGlite and on PostgreSQL: how long opening it takes, sending a
// job, and a job's trip from send to its handler's end in the same process (the OCR route's wait) and through
// the database to a worker polling every 2 s. Bounded: 100 sends, 30 trips in one process, 10 across.
// `npx tsx bench/job-queue.ts` (PGlite) or with BENCH_DATABASE_URL=postgresql://... for PostgreSQL.
import { randomBytes } from "node:crypto";
import pg from "pg";
import { type Database, openDatabase } from "../server/db/client";
import { PgBossQueue } from "../server/platform/job-queue";
import { createLogger } from "../server/platform/logger";

const serverUrl = process.env.BENCH_DATABASE_URL;
const queues = { bench: { retryLimit: 0, retryDelaySeconds: 0, expireInSeconds: 60 } };
const logger = createLogger("silent");

async function open(): Promise<{ database: Database; drop: () => Promise<void> }> {
  if (!serverUrl) return { database: await openDatabase({ dataDir: null }), drop: async () => {} };
  const name = `sonoscribe_bench_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ databaseUrl: url.toString(), dataDir: null });
  return {
    database,
    drop: async () => {
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    },
  };
}

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;
const summary = (ms: number[]) => {
  const sorted = [...ms].sort((a, b) => a - b);
  return `p50 ${pct(sorted, 0.5).toFixed(1)} ms, p99 ${pct(sorted, 0.99).toFixed(1)} ms`;
};

const { database, drop } = await open();
try {
  let t = performance.now();
  const local = new PgBossQueue({ database, queues, work: true, logger, pollSeconds: 2 });
  const done = new Map<string, () => void>();
  local.handle("bench", async (_data, job) => done.get(job.id)?.());
  await local.start();
  console.log(`${database.kind}: queue opened (tables created) in ${(performance.now() - t).toFixed(0)} ms`);

  const sends: number[] = [];
  const web = new PgBossQueue({ database, queues, work: false, logger });
  await web.start();
  // Sent from a process that does not work the queue: nothing runs meanwhile.
  for (let i = 0; i < 100; i++) {
    t = performance.now();
    await web.send("bench", { i });
    sends.push(performance.now() - t);
  }
  console.log(`send (100): ${summary(sends)}`);

  // Drain the 100, then time trips one at a time.
  const trips = async (sender: PgBossQueue, n: number) => {
    const ms: number[] = [];
    for (let i = 0; i < n; i++) {
      const start = performance.now();
      const id = crypto.randomUUID();
      const ended = new Promise<void>((resolve) => done.set(id, resolve));
      await sender.send("bench", { i }, { id });
      await ended;
      ms.push(performance.now() - start);
    }
    return ms;
  };
  await new Promise((resolve) => setTimeout(resolve, 5000));
  console.log(`send -> handled, same process (30): ${summary(await trips(local, 30))}`);
  console.log(`send -> handled, another process polling every 2 s (10): ${summary(await trips(web, 10))}`);
  await web.stop();
  await local.stop();
} finally {
  await database.close();
  await drop();
}
