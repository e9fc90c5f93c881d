// Starts a sandbox worker from the file beside this one. Built code runs `sandbox-worker.js`
// directly. From sources (tests run the `.ts` files on Node 20, which cannot strip types), the
// worker registers tsx first; tsx is a dev dependency and the built path never touches it.
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import { Worker, type WorkerOptions } from "node:worker_threads";

const fromSource = import.meta.url.endsWith(".ts");
const workerUrl = new URL(`./sandbox-worker.${fromSource ? "ts" : "js"}`, import.meta.url);

function sourceBootstrap(): string {
  const require = createRequire(import.meta.url);
  const tsxApi = new URL(
    "dist/esm/api/index.mjs",
    pathToFileURL(require.resolve("tsx/package.json")),
  );
  return `import(${JSON.stringify(tsxApi.href)}).then((api) => { api.register(); return import(${JSON.stringify(workerUrl.href)}); });`;
}

/** Spawns one sandbox worker thread. */
export function spawnSandboxWorker(options: WorkerOptions): Worker {
  // The parent's flags (`-e`, `--import`, `--inspect`...) are not for a sandbox thread; some are
  // even invalid in a worker.
  const base: WorkerOptions = { ...options, execArgv: [] };
  if (!fromSource) return new Worker(workerUrl, base);
  // From sources, workspace packages a lane module imports resolve to their sources too.
  return new Worker(sourceBootstrap(), {
    ...base,
    eval: true,
    execArgv: ["--conditions=@dcc/source"],
  });
}
