import type { JobHandler, JobQueue } from "../platform/deps";

/**
 * The app's job queue, seen from a test: it records the jobs sent and keeps the handlers registered, so the test
 * runs a queue's job itself and each run is one it chose (no timing).
 */
export function manualJobQueue() {
  const sent: string[] = [];
  const handlers = new Map<string, JobHandler<unknown>>();
  const jobQueue: JobQueue = {
    send: async (queue) => {
      sent.push(queue);
      return `job-${sent.length}`;
    },
    state: async () => null,
    abandon: async () => undefined,
    handle: (queue, handler) => void handlers.set(queue, handler as JobHandler<unknown>),
    onSettled: () => () => undefined,
    start: async () => undefined,
    stop: async () => undefined,
  };
  /** One job of the queue, as the queue runs it (after the request that sent it, or its cron's). */
  const run = (queue: string) => handlers.get(queue)!({}, { id: "test-job", retryCount: 0 });
  return { jobQueue, sent, run };
}
