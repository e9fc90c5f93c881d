import type { CancelToken } from "@dcc/cancel";
import type { Approver, ExecuteLogEntry, ExecuteProgress } from "@dcc/executor";

/**
 * What the bridge needs from an executor, written structurally so that `DccApiExecutor` from
 * `@dcc/executor` fits without the bridge depending on its class, and tests or adapters can supply
 * their own.
 */

/** Per-call options the bridge passes to {@link BridgeExecutor.execute}. */
export interface BridgeExecuteOptions {
  /** Wall-clock budget for the script, in seconds. */
  timeoutSecs?: number;
  /** Aborted when the call is cancelled. */
  signal?: AbortSignal;
  /** The call's token (carries the server-owned job id). */
  cancelToken?: CancelToken;
  /** Receives the script's `progress()` calls. */
  onProgress?: (progress: ExecuteProgress) => void;
  /** Receives console lines as they are written. */
  onLog?: (entry: ExecuteLogEntry) => void;
  /** Keep a failed script's changes instead of rolling them back (`keep_partial`). */
  keepPartialChanges?: boolean;
  /** The undo step's name, after the call (e.g. `"dcc_execute: add a tree"`). */
  undoLabel?: string;
  /**
   * Provenance for a script the executor stores instead of running (a typed `main` entry point):
   * the MCP session and the server-owned job id of the call.
   */
  materialize?: { sessionId?: string; toolCallId?: string };
  /** Asks the client to approve a command under an approval rule (see `ExecuteOptions.approve`). */
  approve?: Approver;
  /** Rules approved in advance for this call (see `ExecuteOptions.preapproved`). */
  preapproved?: readonly string[] | undefined;
}

/** A parameterised call of a materialized script (`file_path` + `params`). */
export interface BridgeExecuteParamsRequest {
  /** Path of the materialized script. */
  filePath: string;
  /** Arguments for the script's entry point. */
  params: Record<string, unknown>;
  /** Expected SHA-256 of the file's content, hex. */
  sha256?: string;
  /** Wall-clock budget in seconds. */
  timeoutSecs?: number;
}

/**
 * What an executor's search or execute returns: a JSON object with at least `success` and
 * `message`. Its other fields (`results`, `output`, `error`, `errorCode`, `logs`, `completion`, …)
 * pass through to the client unchanged.
 */
export interface BridgeEnvelope {
  /** False when the call failed; the MCP result then carries `isError: true`. */
  readonly success: boolean;
  /** One-line summary. */
  readonly message: string;
}

/** A {@link BridgeEnvelope} as the bridge stores and returns it, with its other fields visible. */
export type BridgeResult = {
  /** False when the call failed. */
  success: boolean;
  /** One-line summary. */
  message: string;
  /** Every other field of the envelope. */
  [field: string]: unknown;
};

/**
 * The executor's own limits that the execute tool's input schema is built from, so the schema
 * and the executor cannot disagree; `DccApiExecutor.limits` fits.
 */
export interface BridgeExecutorLimits {
  /** Timeout in whole seconds when a call gives none: the schema's `timeout_secs` default. */
  readonly timeoutSecs: number;
  /** Largest timeout a call may ask for: the schema's `timeout_secs` maximum. */
  readonly maxTimeoutSecs: number;
  /** Largest script in characters: the schema's `code` maximum length. */
  readonly maxCodeChars: number;
}

/** The range of the search `limit` that the search tool's schema is built from. */
export interface BridgeSearchLimits {
  /** Results when a call gives no `limit`: the schema's default. */
  readonly defaultLimit: number;
  /** Largest `limit`: the schema's maximum (the minimum is 1). */
  readonly maxLimit: number;
}

/** The executor surface {@link registerDccApiExecutor} drives; `DccApiExecutor` satisfies it. */
export interface BridgeExecutor {
  /** DCC identifier, used in messages and default tool names. */
  readonly dccName: string;
  /**
   * The executor's timeout and code limits. When given, `dcc_execute`'s schema shows and applies
   * exactly these; when absent, the schema sets no default or maximum and the executor decides.
   */
  readonly limits?: BridgeExecutorLimits | undefined;
  /** The search limit's range, used the same way for `dcc_search`'s `limit`. */
  readonly searchLimits?: BridgeSearchLimits | undefined;
  /** Searches the command catalog. */
  search(query: string, options?: { limit?: number }): BridgeEnvelope;
  /** Runs a script. Never rejects for script failures; they come back as `success: false`. */
  execute(code: string, options?: BridgeExecuteOptions): Promise<BridgeEnvelope>;
  /** Runs a materialized script with structured parameters, when the executor supports it. */
  executeParams?(
    request: BridgeExecuteParamsRequest,
    options?: BridgeExecuteOptions,
  ): Promise<BridgeEnvelope>;
}
