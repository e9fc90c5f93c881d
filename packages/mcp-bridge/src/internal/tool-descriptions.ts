// The descriptions are the agent's whole manual for the two tools; a test keeps both together
// under 600 o200k tokens, so every line has to earn its place.
import type { BridgeExecutorLimits } from "../bridge-executor.ts";

/** Description of the search tool for one DCC. */
export function searchDescription(dccName: string, executeToolName: string): string {
  return [
    `Find ${dccName} commands by keywords: names, signatures, descriptions.`,
    `Use it before ${executeToolName}; try other words if nothing fits.`,
  ].join("\n");
}

/**
 * Description of the execute tool for one DCC; the timeout figures are the executor's `limits`
 * (the same ones the input schema carries), left out when the executor states none.
 */
export function executeDescription(
  dccName: string,
  searchToolName: string,
  limits?: BridgeExecutorLimits,
): string {
  const timeout =
    limits === undefined
      ? "timeout_secs bounds the run"
      : `timeout_secs defaults to ${limits.timeoutSecs} (max ${limits.maxTimeoutSecs})`;
  return [
    `Run a JavaScript/TypeScript script in a sandbox that drives ${dccName} (no network, files or imports). Do many commands in one call: only its top-level \`return value\` (JSON) comes back.`,
    `- dispatch(name, args) runs one ${dccName} command (find it with ${searchToolName} first; args is an object of its flags) and returns its result. A failing one throws an Error with .code; catch it to carry on.`,
    '  const made = dispatch("polySphere", { name: "ball", radius: 2 });',
    "  return { made };",
    `- console.* lines come back in logs; progress(done, total?, message?) reports progress. ${timeout}.`,
    "- Failure: success false with error, errorCode (SCRIPT_ERROR, TIMEOUT, CANCELLED, …) and completion (did the last command finish?); its changes are undone (see rollback) unless keep_partial. A success is one undo step.",
    '- async: true returns a job_id; then pass { job_id, job_action: "status" | "result" | "cancel" }.',
    "- A script that only defines function main(...) is stored, not run: pass the returned file_path with params to run main(params).",
  ].join("\n");
}
