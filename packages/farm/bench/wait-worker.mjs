// A farm worker for the benchmark whose DCC is a stand-in that answers `wait(ms)` after ms
// milliseconds, the way a command sent to a DCC process keeps a job waiting without using this
// process's CPU: `node wait-worker.mjs <redis url> <pool>`. Prints "ready" once it takes jobs.
import { DccApiCatalog } from "@dcc/catalog";
import { runFarmWorker } from "@dcc/farm";

const [url, pool = "wait"] = process.argv.slice(2);
const commands = [
  {
    name: "wait",
    signature: "wait(ms: number): number",
    description: "Answer after ms milliseconds",
    handler: (args, { signal }) =>
      new Promise((resolve, reject) => {
        const ms = typeof args === "number" ? args : 0;
        const timer = setTimeout(() => resolve(ms), ms);
        signal.addEventListener("abort", () => {
          clearTimeout(timer);
          reject(new Error("cancelled"));
        });
      }),
  },
];
const adapter = {
  dccName: pool,
  scriptsAtOnce: 1,
  commands: () => commands,
  catalog: () =>
    new DccApiCatalog(pool, {
      commands: commands.map(({ name, signature, description }) => ({
        name,
        signature,
        description,
      })),
    }),
};
const worker = await runFarmWorker({ redis: { url }, pool, adapter });
process.stderr.write("ready\n");
const stop = () => void worker.close().then(() => process.exit(0));
process.once("SIGTERM", stop);
process.once("SIGINT", stop);
