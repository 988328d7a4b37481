// A TypeScript worker thread's entry under tsx (development and tests; see worker-thread.ts). The compiled server
// starts its workers' .js files directly and never loads this file.
import { workerData } from "node:worker_threads";
import { register } from "tsx/esm/api";

register();
await import(workerData.tsxEntry);
