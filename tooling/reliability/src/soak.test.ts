import { DccApiExecutor, ToolDispatcher, ToolRegistry } from "@dcc/executor";
import { createMayaAdapter } from "@dcc/maya";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { faultCommands, newFaultState } from "./__fixtures__/fault-commands.ts";
import { generousMs, waitUntil } from "./__fixtures__/reliability-server.ts";
import { trackWorkers, type WorkerTracker } from "./__fixtures__/worker-tracker.ts";

// A reduced soak; `pnpm bench` runs the full one (10,000 executions, 1,000 cancellations).
const executions = 500;
const cancellations = 100;
/** Generous: the run is short, the heap is not collected on demand, and vitest itself allocates. */
const rssMarginBytes = 120 * 1024 * 1024;
/**
 * The whole run takes about 10 s on an idle machine and several times that on a loaded one; the
 * bound only catches a run that stops making progress.
 */
const soakTimeoutMs = 600_000;

let tracker: WorkerTracker;
let executor: DccApiExecutor;
const faults = newFaultState();

beforeAll(async () => {
  tracker = trackWorkers();
  const maya = createMayaAdapter();
  const registry = new ToolRegistry().registerAll([...maya.commands(), ...faultCommands(faults)]);
  executor = new DccApiExecutor("maya", {
    catalog: maya.catalog(),
    dispatcher: new ToolDispatcher(registry),
  });
  await executor.pool.warmUp();
});

afterAll(async () => {
  await executor?.close();
  tracker?.restore();
});

/** Active handles and requests by type (timers show as `Timeout`, sockets as `TCPWRAP`, …). */
function activeResources(): Map<string, number> {
  const counts = new Map<string, number>();
  for (const type of process.getActiveResourcesInfo())
    counts.set(type, (counts.get(type) ?? 0) + 1);
  return counts;
}

describe("soak", () => {
  it(
    `${executions} executions and ${cancellations} cancellations leak no workers, handles or memory`,
    async () => {
      for (let index = 0; index < 50; index++) await executor.execute("return 1 + 1");
      const resourcesBefore = activeResources();
      const rssBefore = process.memoryUsage().rss;
      const poolSize = executor.pool.size;
      expect(tracker.live()).toHaveLength(poolSize);

      for (let index = 0; index < executions; index++) {
        const result = await executor.execute(
          `console.log("run", ${index}); return dispatch("objExists", { args: ["lambert1"] }) ? ${index} : -1;`,
          { timeoutSecs: 60 },
        );
        if (!result.success || result.output !== index) {
          throw new Error(`execution ${index} failed: ${JSON.stringify(result)}`);
        }
      }

      for (let index = 0; index < cancellations; index++) {
        const abort = new AbortController();
        const marks = faults.marks;
        // Half spin in guest code, half wait inside a host command; either runs for a minute unless
        // the cancel stops it, so only CANCELLED can come back.
        const code =
          index % 2 === 0
            ? "dispatch('faultMark', {}); for (;;) {}"
            : "dispatch('faultMark', {}); dispatch('faultSlow', { ms: 120000 });";
        const running = executor.execute(code, { signal: abort.signal, timeoutSecs: 60 });
        if (!(await waitUntil(() => faults.marks > marks))) throw new Error("never started");
        abort.abort();
        const result = await running;
        if (result.success || result.errorCode !== "CANCELLED") {
          throw new Error(`cancellation ${index} did not cancel: ${JSON.stringify(result)}`);
        }
      }

      // Replacement workers (if any) start, and terminated ones close their handles,
      // asynchronously: wait (bounded) for both before comparing.
      expect(await waitUntil(() => tracker.live().length === poolSize)).toBe(true);
      const settled = (): boolean =>
        [...activeResources()].every(([type, count]) => count <= (resourcesBefore.get(type) ?? 0));
      await waitUntil(settled, generousMs);
      const resourcesAfter = activeResources();
      for (const [type, count] of resourcesAfter) {
        expect(count, `active ${type} resources`).toBeLessThanOrEqual(
          resourcesBefore.get(type) ?? 0,
        );
      }
      const growth = process.memoryUsage().rss - rssBefore;
      expect(growth).toBeLessThan(rssMarginBytes);
      const last = await executor.execute("return 'still fine'");
      expect(last).toMatchObject({ success: true, output: "still fine" });
    },
    soakTimeoutMs,
  );
});
