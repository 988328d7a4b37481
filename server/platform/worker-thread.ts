import { Worker, type WorkerOptions } from "node:worker_threads";

/**
 * A worker thread running the module `name` next to the caller (`moduleUrl`: the caller's import.meta.url): the
 * compiled `.js` file in production; under tsx (development, tests) the `.ts` file through tsx-worker.mjs, because
 * Node's worker threads do not take `--import tsx`.
 */
export function startWorkerThread(
  moduleUrl: string,
  name: string,
  options: Omit<WorkerOptions, "workerData"> = {},
): Worker {
  if (!moduleUrl.endsWith(".ts")) return new Worker(new URL(`${name}.js`, moduleUrl), options);
  return new Worker(new URL("./tsx-worker.mjs", import.meta.url), {
    ...options,
    workerData: { tsxEntry: new URL(`${name}.ts`, moduleUrl).href },
  });
}
