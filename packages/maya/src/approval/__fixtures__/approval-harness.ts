// What the Maya approval tests share, on the simulated and on the linked adapter: an approver
// that answers one way and keeps what it was asked, an executor that asks before every shared
// rule, and a script's output (or the script's error, thrown).
import {
  type AdapterExecutorOptions,
  type ApprovalQuestion,
  type Approver,
  createAdapterExecutor,
  type DccAdapter,
  type DccApiExecutor,
  type ExecuteResult,
} from "@dcc/executor";

/** An approver answering `yes` (or `no`) to every question, keeping what it was asked. */
export function recordingApprover(yes: boolean): { approve: Approver; asked: ApprovalQuestion[] } {
  const asked: ApprovalQuestion[] = [];
  return {
    asked,
    approve: async (question) => {
      asked.push(question);
      return yes ? { approved: true, by: "test" } : { approved: false, reason: "declined" };
    },
  };
}

/** A script's output; throws with the script's error when it failed. */
export function outputOf(result: ExecuteResult): unknown {
  if (!result.success) throw new Error(`the script failed: ${result.error}`);
  return result.output;
}

/** An executor asking before the four shared rules' calls, and how to run a script on it. */
export interface AskingExecutor {
  readonly executor: DccApiExecutor;
  /** Runs `code` with `approve` answering the questions, within the harness's timeout. */
  run(code: string, approve: Approver): Promise<ExecuteResult>;
  close(): Promise<void>;
}

/** Options for {@link askingExecutor}. */
export interface AskingExecutorOptions {
  /** Each script's timeout. */
  timeoutSecs: number;
  /** Overrides of the executor's limits (a longer `maxTimeoutSecs` for a slow host). */
  limits?: AdapterExecutorOptions["limits"];
}

/** The adapter's executor with `delete`, `overwrite`, `open` and `render` asked. */
export function askingExecutor(
  adapter: DccAdapter,
  options: AskingExecutorOptions,
): AskingExecutor {
  const executor = createAdapterExecutor(adapter, {
    ...(options.limits ? { limits: options.limits } : {}),
    approval: { ask: ["delete", "overwrite", "open", "render"] },
  });
  return {
    executor,
    run: (code, approve) => executor.execute(code, { timeoutSecs: options.timeoutSecs, approve }),
    close: () => executor.close(),
  };
}
