// What the agent reads about the Maya adapter: the execute tool's description (the bridge's
// manual plus this DCC's argument convention) and the server instructions.
import type { DccToolNames } from "@dcc/executor";

/** Description of `dcc_execute` for the Maya adapter, stating the dispatch argument convention. */
export function mayaExecuteDescription(searchToolName: string): string {
  return [
    "Run a JavaScript/TypeScript script in a sandbox that drives maya. Do many commands in one call: only the script's return value comes back.",
    `- dispatch(name, args) runs one maya.cmds command and returns its result (await optional). Flags are keys of one object (long or short names, as in maya.cmds); positional arguments (objects, values) go in args in Maya's order; a plain array means { args }:`,
    '  dispatch("polySphere", { name: "ball", radius: 2 }); dispatch("move", { args: [1, 0, 0, "ball"], relative: true }); dispatch("setAttr", ["ball.translateY", 5]); dispatch("getAttr", ["ball.translate"])',
    "- On failure dispatch throws an Error with .code (NO_OBJECT, INVALID_FLAG, NOT_IMPLEMENTED, …) and .message; catch it to carry on.",
    "- End with a top-level `return value` (JSON); without it output is null.",
    "- console.log/warn/error lines come back in logs; progress(done, total?, message?) reports progress.",
    "- No network, files or imports. timeout_secs bounds the run (its default and maximum are in the input schema); oversized output is shortened.",
    `- Find names and flags with ${searchToolName} first. Example:`,
    '  for (let i = 0; i < 5; i++) dispatch("polySphere", { position: [i, 0, 0] });',
    '  return dispatch("ls", { type: "transform" });',
    "- Failure: success false with error and errorCode (SCRIPT_ERROR, TIMEOUT, CANCELLED, …). completion tells whether the last command finished (complete/unknown/not_started).",
    '- Long work: set async: true to get a job_id at once, then call with { job_id, job_action: "status" | "result" | "cancel" }.',
    "- Or run a materialized script: file_path + params (+ sha256) instead of code.",
  ].join("\n");
}

/** Server instructions sent in `initialize`: what is simulated and how files work. */
export function mayaInstructions(simulated: readonly string[], tools: DccToolNames): string {
  return [
    `A simulated Maya scene (no Maya needed). Use ${tools.search} to find maya.cmds commands, then ${tools.execute} to run a script that calls them with dispatch(name, { ...flags, args: [positional...] }).`,
    `Simulated commands: ${simulated.join(", ")}. Other catalog commands fail with code NOT_IMPLEMENTED.`,
    "poly* primitives also take position: [x, y, z] (not a Maya flag). Scene files are JSON in the server's data folder: file with rename + save, open, new (force: true drops unsaved changes).",
  ].join("\n");
}
