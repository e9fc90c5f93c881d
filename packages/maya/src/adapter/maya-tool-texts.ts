// What the agent reads about the Maya adapter: the execute tool's description (the bridge's
// manual plus this DCC's argument convention) and the server instructions.
import type { DccToolNames } from "@dcc/executor";

/** Description of `dcc_execute` for the Maya adapter, stating the dispatch argument convention. */
export function mayaExecuteDescription(searchToolName: string): string {
  return [
    "Run JavaScript/TypeScript that drives maya in a sandbox (no network, files or imports); do many commands per call. Only the top-level `return value` (JSON) comes back.",
    `- dispatch(name, args) runs a maya.cmds command found with ${searchToolName}. Flags are keys of one object (long or short names); positional arguments (objects, values) go in args in Maya's order; a plain array means { args }:`,
    '  dispatch("polySphere", { name: "ball", radius: 2 }); dispatch("move", { args: [1, 0, 0, "ball"], relative: true })',
    "- A failing dispatch throws an Error with .code (NO_OBJECT, INVALID_FLAG, NOT_IMPLEMENTED, …); catch it to carry on.",
    "- console.* lines come back in logs; progress(done, total?, message?) reports progress.",
    "- Failure: success false, error, errorCode, completion (did the last command finish?); its changes are undone (see rollback) unless keep_partial. A success is one undo step.",
    "- async: true returns a job_id for { job_id, job_action: status|result|cancel }. file_path + params run a stored script.",
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
