// The descriptions are the agent's whole manual for the two tools; a test keeps both together
// under 600 o200k tokens, so every line has to earn its place.
import type { BridgeExecutorLimits } from "../bridge-executor.ts";

/** Description of the search tool for one DCC. */
export function searchDescription(dccName: string, executeToolName: string): string {
  return [
    `Search the ${dccName} command catalog by keywords. Returns matching commands with signatures and descriptions.`,
    `Use it before ${executeToolName} to get exact command names and flags; search again with other words if nothing fits.`,
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
    `Run a JavaScript/TypeScript script in a sandbox that drives ${dccName}. Do many commands in one call: only the script's return value comes back.`,
    `- dispatch(name, args) runs one ${dccName} command and returns its result (await optional). args is an object of the flags shown by ${searchToolName}. On failure it throws an Error with .code and .message; catch it to carry on.`,
    "- End with a top-level `return value` (JSON); without it output is null.",
    "- console.log/warn/error lines come back in logs; progress(done, total?, message?) reports progress.",
    `- No network, files or imports. ${timeout}; oversized output is shortened.`,
    `- Find names with ${searchToolName} first. Example:`,
    '  const made = dispatch("polySphere", { name: "ball", radius: 2 });',
    "  return { made };",
    "- Failure: success false with error and errorCode (SCRIPT_ERROR, TIMEOUT, CANCELLED, …). completion tells whether the last command finished (complete/unknown/not_started).",
    '- Long work (clients often give up after 60 s): set async: true to get a job_id at once, then call with { job_id, job_action: "status" | "result" | "cancel" }.',
    "- A script that only defines function main(...) may be stored, not run: the result gives filePath and parametersSchema; then pass { file_path, params } to run main(params) again and again.",
  ].join("\n");
}
