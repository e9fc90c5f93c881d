// Worker-thread entry that loads a TypeScript module from this package's sources (through tsx),
// so tests can observe the ambient context as a worker thread sees it.
import { workerData } from "node:worker_threads";
import { tsImport } from "tsx/esm/api";

await tsImport(workerData.module, import.meta.url);
