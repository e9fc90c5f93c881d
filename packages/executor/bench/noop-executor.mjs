// The executor the dispatch benchmarks run on: one host command, `noop`, that notes when each call
// reaches the host. The gap between two consecutive arrivals is one full round trip (answer,
// worker wake-up, guest code, next call).
import { DccApiExecutor, ToolDispatcher, ToolRegistry } from "@dcc/executor";

/** A script that dispatches `noop` `calls` times and returns 1. */
export function noopLoop(calls) {
  return `for (let i = 0; i < ${calls}; i++) dispatch("noop", { i }); return 1`;
}

/**
 * A `DccApiExecutor` named "bench" over a dispatcher with only `noop`. `reset()` forgets the
 * arrivals noted so far; `collectGaps(gaps)` appends the gaps (µs) between the arrivals since.
 * Another executor given the same `executor.dispatcher` notes its calls here too.
 */
export function noopExecutor() {
  let arrivals = [];
  const registry = new ToolRegistry().register({
    name: "noop",
    handler: () => {
      arrivals.push(performance.now());
      return null;
    },
  });
  const executor = new DccApiExecutor("bench", { dispatcher: new ToolDispatcher(registry) });
  return {
    executor,
    reset: () => {
      arrivals = [];
    },
    collectGaps: (gaps) => {
      for (let i = 1; i < arrivals.length; i++) gaps.push((arrivals[i] - arrivals[i - 1]) * 1000);
    },
  };
}
