import type pg from "pg";

/**
 * Start-up work that processes sharing one PostgreSQL database must not run at the same moment (migrations, the job
 * queue's schema and queues): concurrent DDL on a fresh database fails with duplicate-key errors or deadlocks.
 * The lock is a session advisory lock held on a connection of its own while `work` runs on the pool; a process that
 * dies releases it with its connection. Waiting longer than `waitSeconds` fails loudly rather than hanging.
 */
export async function withAdvisoryLock<T>(
  pool: pg.Pool,
  name: string,
  work: () => Promise<T>,
  waitSeconds = 120,
): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query(`set lock_timeout = '${Math.round(waitSeconds * 1000)}ms'`);
    await client.query("select pg_advisory_lock(hashtextextended($1, 0))", [`sonoscribe.${name}`]);
    return await work();
  } finally {
    // Closed rather than handed back: the lock goes with the session, and no setting of ours stays on the pool.
    client.release(true);
  }
}

/** The embedded database has one process; its callers (several job queues in a test) still take turns. */
export function inProcessLock(): <T>(name: string, work: () => Promise<T>) => Promise<T> {
  const tails = new Map<string, Promise<unknown>>();
  return <T>(name: string, work: () => Promise<T>) => {
    const run = (tails.get(name) ?? Promise.resolve()).then(work, work);
    tails.set(
      name,
      run.catch(() => undefined),
    );
    return run;
  };
}
