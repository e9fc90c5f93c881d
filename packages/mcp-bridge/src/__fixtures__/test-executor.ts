// The executor the tests drive: the real DccApiExecutor (QuickJS on worker threads) over a real
// ToolRegistry/ToolDispatcher and DccApiCatalog holding the test host commands. A thin wrapper
// records each execute result so tests can wait, boundedly, for a script to have stopped.
import { DccApiCatalog } from "@dcc/catalog";
import { DccApiExecutor, ToolDispatcher, ToolRegistry } from "@dcc/executor";
import type { BridgeExecutor, BridgeResult } from "../bridge-executor.ts";
import { createHostCommands, type HostJournal } from "./host-commands.ts";

/** The executor plus what tests observe about it. */
export interface TestExecutor {
  /** The real executor, unwrapped. */
  real: DccApiExecutor;
  /** The real executor behind a recorder of results. */
  executor: BridgeExecutor;
  journal: HostJournal;
  /** Results of finished execute calls, in order. */
  results: BridgeResult[];
  /** Resolves true once no execute call is running (false after `ms`). */
  idle(ms?: number): Promise<boolean>;
  close(): Promise<void>;
}

/** Creates a real executor named `dccName` with the host commands of {@link createHostCommands}. */
export function createTestExecutor(
  dccName = "maya",
  options: { scriptsRoot?: string } = {},
): TestExecutor {
  const { commands, journal } = createHostCommands();
  const registry = new ToolRegistry().registerAll(commands);
  const catalog = new DccApiCatalog(dccName, { commands: registry.catalogRecords() });
  const real = new DccApiExecutor(dccName, {
    catalog,
    dispatcher: new ToolDispatcher(registry),
    ...(options.scriptsRoot === undefined ? {} : { scripts: options.scriptsRoot }),
  });
  const results: BridgeResult[] = [];
  let running = 0;
  const executor: BridgeExecutor = {
    dccName,
    limits: real.limits,
    searchLimits: real.searchLimits,
    search: (query, options) => real.search(query, options ?? {}),
    async execute(code, options) {
      running += 1;
      try {
        const result = await real.execute(code, options ?? {});
        results.push({ ...result });
        return result;
      } finally {
        running -= 1;
      }
    },
    executeParams: async (request, options) => ({
      ...(await real.executeParams(request, options ?? {})),
    }),
  };
  return {
    real,
    executor,
    journal,
    results,
    async idle(ms = 10_000) {
      const deadline = Date.now() + ms;
      while (running > 0 && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 2));
      return running === 0;
    },
    close: () => real.close(),
  };
}
