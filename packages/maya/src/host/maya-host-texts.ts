// What the agent reads about a real Maya: the server instructions (the execute tool's
// description is the simulated adapter's, since the argument convention is the same).
import type { DccToolNames } from "@dcc/executor";

/** Server instructions for a real Maya behind `@dcc/link`. */
export function mayaHostInstructions(tools: DccToolNames, attached: boolean): string {
  return [
    `A real Autodesk Maya (${attached ? "the user's own, through the dcc_maya_link plug-in" : "headless mayapy"}). Use ${tools.search} to find maya.cmds commands, then ${tools.execute} to run a script that calls them with dispatch(name, { ...flags, args: [positional...] }).`,
    "Flags are Maya's (long or short names). poly* primitives also take position: [x, y, z] (not a Maya flag: applied to the new transform).",
    "Refused, with code POLICY and the rule's name in error.data.rule: commands and flags that run code (Callable and script flags, python, eval, scriptJob, expression strings…), that reach outside Maya (commandPort, loadPlugin, system calls, preferences) or block it (dialogs), and file paths outside the data folder (relative paths are inside it). Opening a scene never runs its script nodes.",
    "A failed script's changes are undone (one undo chunk per script).",
  ].join("\n");
}
