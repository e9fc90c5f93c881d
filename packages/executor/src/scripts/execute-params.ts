import path from "node:path";
import { pathToFileURL } from "node:url";
import type { ParametersSchema } from "./analyze-script.ts";
import { buildMainCall } from "./internal/main-call.ts";
import { issuesOf, validatorFor } from "./internal/validator.ts";
import { InvalidParametersError } from "./invalid-parameters-error.ts";
import type { ScriptFileRef } from "./materialized-script.ts";
import { NoMainFunctionError } from "./no-main-function-error.ts";
import { ScriptOptionsError } from "./script-options-error.ts";
import type { ResolvedScript, ScriptStore } from "./script-store.ts";

/** A call of a materialized script's `main` with named parameters. */
export interface ExecuteParamsRequest {
  /** Path of the script: absolute inside the scripts root, or relative to it. */
  filePath: string;
  /** Named parameters of `main` (a JSON object); `{}` when absent. */
  params?: unknown;
  /** Expected hex sha256 of the file (optionally `sha256:`-prefixed). */
  sha256?: string;
  /** Wall-clock limit in seconds, as for `execute`. */
  timeoutSecs?: number;
}

/** `context.materialized_script` of a parameterised run. */
export interface MaterializedScriptContext {
  /** How the script was reached: "file_path" for a call by path, "materialized" when written. */
  source: "file_path" | "materialized";
  /** Absolute real path of the script. */
  filePath: string;
  /** Same as `filePath` (upstream key). */
  path: string;
  /** `file://` reference with `sha256:` digest. */
  fileRef: ScriptFileRef;
  /** Hex sha256 of the bytes that ran. */
  sha256: string;
  /** Their size. */
  bytes: number;
  /** True when an existing file was used without rewriting it. */
  reused: boolean;
  /** Expiry, or null. */
  expiresAt: string | null;
  /** TTL in seconds, or null. */
  ttlSecs: number | null;
  /** Session segment, or null for a file without a sidecar. */
  sessionId: string | null;
  /** Tool call recorded at materialization, or null. */
  toolCallId: string | null;
  /** Correlation id recorded at materialization, or null. */
  correlationId: string | null;
  /** Schema derived from the body that ran. */
  parametersSchema: ParametersSchema | null;
}

/** A verified script turned into guest code that calls `main`. */
export interface PreparedScriptCall {
  /** Guest code: the file body, then `return await main(...)`. */
  code: string;
  /** The resolved script. */
  script: ResolvedScript;
  /** The validated parameters, as the guest receives them. */
  params: Record<string, unknown>;
  /** What goes into `context.materialized_script`. */
  context: MaterializedScriptContext;
}

/**
 * Resolves and verifies `request.filePath` in `store` (confinement, sha256, sidecar, schema
 * re-derived from the current body), validates `params` against the schema (every failing field
 * reported), and builds the guest code that calls `main`.
 *
 * @throws {@link InvalidParametersError}, {@link NoMainFunctionError} or any error of
 * {@link ScriptStore.resolve}.
 */
export async function prepareScriptCall(
  store: ScriptStore,
  request: ExecuteParamsRequest,
): Promise<PreparedScriptCall> {
  if (request.sha256 !== undefined && typeof request.sha256 !== "string") {
    throw new ScriptOptionsError({ option: "sha256", detail: "must be a hex string" });
  }
  const script = await store.resolve(
    request.filePath,
    request.sha256 === undefined ? {} : { sha256: request.sha256 },
  );
  const { analysis } = script;
  if (!analysis.hasMain || analysis.parametersSchema === null) {
    throw new NoMainFunctionError({
      detail: `declare a top-level \`function main(...)\` in ${script.filePath}`,
    });
  }
  if (analysis.hasTopLevelReturn) {
    throw new NoMainFunctionError({
      detail: "the script returns at the top level, so main would never run",
    });
  }
  if (analysis.callsMainAtTopLevel) {
    throw new NoMainFunctionError({
      detail:
        "the script calls main itself at the top level; remove that call, executeParams calls main",
    });
  }
  const params = jsonParams(request.params, script.filePath);
  const validate = validatorFor(analysis.parametersSchema);
  if (!validate(params)) {
    throw new InvalidParametersError({
      issues: issuesOf(validate.errors),
      filePath: script.filePath,
    });
  }
  const names = analysis.parameters.map((parameter) => parameter.name);
  const metadata = script.metadata;
  return {
    code: buildMainCall(script.code, names, params),
    script,
    params,
    context: {
      source: "file_path",
      filePath: script.filePath,
      path: script.filePath,
      fileRef: {
        uri: pathToFileURL(script.filePath).href,
        digest: `sha256:${script.sha256}`,
        sizeBytes: script.bytes,
        displayName: path.basename(script.filePath),
      },
      sha256: script.sha256,
      bytes: script.bytes,
      reused: true,
      expiresAt: metadata?.expiresAt ?? null,
      ttlSecs: metadata?.ttlSecs ?? null,
      sessionId: metadata?.sessionId ?? null,
      toolCallId: metadata?.toolCallId ?? null,
      correlationId: metadata?.correlationId ?? null,
      parametersSchema: analysis.parametersSchema,
    },
  };
}

function jsonParams(params: unknown, filePath: string): Record<string, unknown> {
  if (params === undefined) return {};
  let parsed: unknown;
  try {
    // Validate exactly what the guest will receive: the JSON form of the parameters.
    parsed = JSON.parse(JSON.stringify(params) ?? "null");
  } catch (error) {
    throw new InvalidParametersError({
      issues: [{ path: "", message: "params must be JSON-serialisable" }],
      filePath,
      cause: error,
    });
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    throw new InvalidParametersError({
      issues: [{ path: "", message: "params must be an object of named parameters" }],
      filePath,
    });
  }
  return parsed as Record<string, unknown>;
}
