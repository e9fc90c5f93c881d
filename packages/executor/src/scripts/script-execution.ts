import { DccMcpError } from "@dcc/cancel";
import { executeMessage } from "../execute-message.ts";
import type { ExecuteOptions } from "../execute-options.ts";
import type { ExecuteFailure, ExecuteResult, JsonValue } from "../execute-result.ts";
import {
  type ExecuteParamsRequest,
  type MaterializedScriptContext,
  prepareScriptCall,
} from "./execute-params.ts";
import type { MaterializedScript } from "./materialized-script.ts";
import type { MaterializeOptions, ScriptStore } from "./script-store.ts";

/**
 * How `execute` files a typed entry point it materializes instead of running: the path segments,
 * TTL and provenance recorded for it. The DCC segment is the executor's `dccName`; the file is
 * always reused by content.
 */
export type MaterializeOnExecuteOptions = Omit<MaterializeOptions, "dccType" | "reuse" | "suffix">;

/** What the materialized-script paths of the executor need from it. */
export interface ScriptExecutionHost {
  readonly dccName: string;
  run(
    code: string,
    options: ExecuteOptions & { context?: Record<string, JsonValue> },
  ): Promise<ExecuteResult>;
}

/**
 * `executeParams` for an executor: resolves and verifies the script, validates `params`, then
 * runs the file body and `main(...)` through `host.run` (same worker pool, dispatcher, limits and
 * timeout as `execute`). Problems with the path, hash, sidecar or parameters come back as an
 * `INVALID_INPUT` failure whose `error` names what was wrong.
 */
export async function executeParamsOn(
  host: ScriptExecutionHost,
  store: ScriptStore | undefined,
  request: ExecuteParamsRequest,
  options: ExecuteOptions,
): Promise<ExecuteResult> {
  const startedAt = performance.now();
  if (store === undefined) {
    return invalid(host, startedAt, "Materialized scripts are not configured on this executor");
  }
  if (typeof request !== "object" || request === null) {
    return invalid(host, startedAt, "executeParams needs { filePath, params }");
  }
  let prepared: Awaited<ReturnType<typeof prepareScriptCall>>;
  try {
    prepared = await prepareScriptCall(store, request);
  } catch (error) {
    return failed(host, startedAt, error);
  }
  const timeoutSecs = request.timeoutSecs ?? options.timeoutSecs;
  return host.run(prepared.code, {
    ...options,
    ...(timeoutSecs === undefined ? {} : { timeoutSecs }),
    context: { materialized_script: prepared.context as unknown as JsonValue },
  });
}

/**
 * `execute` of a typed entry point (top-level `main`, no top-level `return`, no call of `main`):
 * the script is materialized, not run, and the result carries its `filePath` and
 * `parametersSchema` so the client can call it with `file_path` and `params`.
 */
export async function materializeOnExecute(
  host: ScriptExecutionHost,
  store: ScriptStore,
  code: string,
  options: MaterializeOnExecuteOptions = {},
): Promise<ExecuteResult> {
  const startedAt = performance.now();
  let script: MaterializedScript;
  try {
    script = await store.materialize(code, { ...options, dccType: host.dccName, reuse: true });
  } catch (error) {
    return failed(host, startedAt, error);
  }
  const context: MaterializedScriptContext = {
    source: "materialized",
    filePath: script.filePath,
    path: script.filePath,
    fileRef: script.fileRef,
    sha256: script.sha256,
    bytes: script.bytes,
    reused: script.reused,
    expiresAt: script.expiresAt,
    ttlSecs: script.ttlSecs,
    sessionId: script.sessionId,
    toolCallId: script.toolCallId,
    correlationId: script.correlationId,
    parametersSchema: script.parametersSchema,
  };
  return {
    success: true,
    message: `Script materialized on ${host.dccName}; run its main with file_path and params.`,
    output: {
      materialized: true,
      filePath: script.filePath,
      sha256: script.sha256,
      parametersSchema: script.parametersSchema as JsonValue,
      hint: "The script defines main and returns nothing at the top level, so it was stored, not run. Call again with file_path and params (an object of main's parameters) to run main.",
    },
    logs: [],
    context: { materialized_script: context as unknown as JsonValue },
    completion: "complete",
    stats: { durationMs: elapsed(startedAt), dispatchCalls: 0 },
  };
}

/** Our own errors are invalid input; anything else (a file system failure) is internal. */
function failed(host: ScriptExecutionHost, startedAt: number, error: unknown): ExecuteFailure {
  if (DccMcpError.is(error)) return invalid(host, startedAt, error.message);
  return {
    ...invalid(host, startedAt, error instanceof Error ? error.message : String(error)),
    message: executeMessage(host.dccName, "INTERNAL"),
    errorCode: "INTERNAL",
  };
}

function invalid(host: ScriptExecutionHost, startedAt: number, error: string): ExecuteFailure {
  return {
    success: false,
    message: executeMessage(host.dccName, "INVALID_INPUT"),
    error,
    errorCode: "INVALID_INPUT",
    logs: [],
    completion: "not_started",
    stats: { durationMs: elapsed(startedAt), dispatchCalls: 0 },
  };
}

function elapsed(startedAt: number): number {
  return Math.round((performance.now() - startedAt) * 1000) / 1000;
}
