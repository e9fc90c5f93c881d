// Quick measurement of one dispatch round trip to a no-op host command, without the whole bench:
// the p50 gap between consecutive arrivals at the host, as bench/index.mjs measures it.
// Against sources: node --conditions=@dcc/source --import tsx bench/dispatch-rtt.mjs
// Against dist:    node bench/dispatch-rtt.mjs            (after building the package)
// Options: --calls N (per script, default 2000) --runs N (scripts, default 5) --repeat N (default 1)
// Each repeat is followed by a bare worker-thread round trip of as many calls
// (thread-round-trip.mjs): the floor swings with where the scheduler puts the two threads (about
// 3.5 µs when they run on two awake cores, about 15 µs when they take turns on one), so our own
// share is read from the pair measured back to back, not from either figure alone.
import { parseArgs } from "node:util";
import { median } from "../../../bench/support.mjs";
import { noopExecutor, noopLoop } from "./noop-executor.mjs";
import { threadRoundTrips } from "./thread-round-trip.mjs";

const { values } = parseArgs({
  options: {
    calls: { type: "string", default: "2000" },
    runs: { type: "string", default: "5" },
    repeat: { type: "string", default: "1" },
  },
});
const calls = Number(values.calls);
const runs = Number(values.runs);
const { executor, reset, collectGaps } = noopExecutor();
try {
  await executor.pool.warmUp?.();
  const loop = noopLoop(calls);
  await executor.execute(loop);
  const p50s = [];
  const ownShares = [];
  for (let r = 0; r < Number(values.repeat); r++) {
    const gaps = [];
    const cpuBefore = process.cpuUsage();
    for (let i = 0; i < runs; i++) {
      reset();
      const result = await executor.execute(loop);
      if (!result.success) throw new Error(`script failed: ${JSON.stringify(result)}`);
      collectGaps(gaps);
    }
    const { user, system } = process.cpuUsage(cpuBefore);
    const p50 = median(gaps);
    p50s.push(p50);
    const bare = await threadRoundTrips(runs * calls);
    const bareP50 = median(bare.gaps);
    ownShares.push(p50 - bareP50);
    console.log(
      `dispatch round trip p50 ${p50.toFixed(1)} µs over ${gaps.length} gaps (CPU ${((user + system) / (runs * calls)).toFixed(1)} µs per call); bare thread round trip right after ${bareP50.toFixed(1)} µs (CPU ${bare.cpuPerCall.toFixed(1)})`,
    );
  }
  if (p50s.length > 1) {
    console.log(
      `median of ${p50s.length} p50s: ${median(p50s).toFixed(1)} µs; our share over the bare round trip: ${median(ownShares).toFixed(1)} µs`,
    );
  }
} finally {
  await executor.close?.();
}
