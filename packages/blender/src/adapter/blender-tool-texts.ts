import type { DccToolNames } from "@dcc/executor";
import type { BlenderVocabulary } from "../internal/blender-vocabulary.ts";

const report =
  "An operator returns a report of what it did: { result, created, removed, selected, active, mode } " +
  '(result is Blender\'s set, e.g. ["FINISHED"]; created and removed list data-blocks as { type, name, path }; ' +
  "selected and active name objects after the call; past 100 entries a list is cut and more counts the rest, e.g. { removed: 40 }; " +
  'reports, when present, holds Blender\'s messages such as "Info: Applied modifier was not first").';

// Operators are slow on large scenes in Blender itself: each one updates the whole view layer.
const costs =
  "Operators cost time in proportion to the scene (Blender updates the whole view layer after each: about 1 s per operator at 16,000 objects); data commands do only what they name. " +
  "For bulk work on a large scene use data commands: to place 500 copies of a mesh, const mesh = { $path: 'meshes[\"Cube\"]' }; " +
  'for (let i = 0; i < 500; i++) { const o = dispatch("data.call", { path: "objects.new", args: ["Copy" + i, mesh] }); ' +
  'dispatch("data.call", { path: \'collections["Collection"].objects.link\', args: [{ $path: o.path }] }); ' +
  'dispatch("data.set", { path: o.path + ".location", value: [i * 3, 0, 0] }); } rather than 500 mesh.primitive_cube_add.';
/** One paragraph on the serving Blender's names, for the instructions. */
export function vocabularyText(vocabulary: BlenderVocabulary): string {
  const has = (name: string) => vocabulary.exporters.includes(name);
  const missing = [
    has("wm.usd_export") ? undefined : "USD",
    has("wm.alembic_export") ? undefined : "Alembic",
  ].filter((name) => name !== undefined);
  return [
    `This Blender is ${vocabulary.blender}; use its names, which differ between versions:`,
    `the EEVEE render engine is ${vocabulary.eevee} (render.engine; CYCLES and BLENDER_WORKBENCH are the others);`,
    `its exporters are ${vocabulary.exporters.join(", ")}${missing.length > 0 ? ` (no ${missing.join(" or ")} exporter in this build)` : ""};`,
    `the Principled BSDF node's inputs are ${vocabulary.principledInputs.map((name) => JSON.stringify(name)).join(", ")}.`,
  ].join(" ");
}

/** The server instructions of the Blender adapter. */
export function blenderInstructions(
  tools: DccToolNames,
  dataDir: string,
  vocabulary?: BlenderVocabulary,
): string {
  return [
    `Drives a real Blender. Find commands with ${tools.search}, then run JavaScript with ${tools.execute} that calls them with dispatch(name, args).`,
    'Operators go by their bpy.ops id with one object of keyword arguments: dispatch("mesh.primitive_uv_sphere_add", { radius: 1, location: [2, 0, 0] }). Operators that need a 3D view get one.',
    report,
    'Data commands read and change what operators cannot: dispatch("data.get", { path: \'objects["Cube"].location\' }), data.set, data.list, data.call (RNA functions such as objects["Cube"].modifiers.new), data.describe. Paths start at bpy.data unless they start with context.; pass data-blocks as { "$path": \'objects["Cube"]\' }.',
    costs,
    `Files (.blend, renders, exports) are read and written only inside the data folder ${dataDir}; relative paths start there. Commands that run Python, open URLs, change preferences or install add-ons are refused with code POLICY.`,
    "Errors thrown by dispatch carry a code (POLICY, NOT_FOUND, POLL_FAILED, INVALID_ARGS, HOST_GONE, ...). HOST_GONE means Blender exited (or was ended for a command past its deadline) and was restarted; the message says what was restored from its recovery copy and from when.",
    "render.render with animation: true renders frame by frame (a cancel stops between frames) and lists the files written.",
    'To see the scene, return dispatch("viewport.screenshot", { width: 512 }): the image comes back beside the JSON.',
    ...(vocabulary === undefined ? [] : [vocabularyText(vocabulary)]),
  ].join("\n");
}

/** The execute tool's description for Blender. */
export function blenderExecuteDescription(tools: DccToolNames): string {
  return [
    "Run JavaScript in a sandbox that drives Blender; only the script's return value comes back.",
    `Call commands found with ${tools.search} through dispatch(name, args): operators by bpy.ops id (dispatch("object.select_all", { action: "SELECT" })), data commands by name (dispatch("data.list", { collection: "objects" })).`,
    "An operator returns { result, created, removed, selected, active, mode } (lists past 100 entries are cut; more counts the rest) and reports, Blender's messages.",
    "Operators take time in proportion to the scene; for bulk work on large scenes data.call (objects.new) and data.set are the fast path.",
    "A failing command throws an error with a code; catch it to go on.",
    "A failed, cancelled or timed-out script is undone (see rollback) unless keep_partial; a script that changed the scene is one undo step (a script of ed.undo takes it back; reads and captures add none); files written stay.",
    "Long work (big renders, bakes) belongs in an async job: async: true with a larger timeout_secs; a command still running at the deadline ends Blender.",
  ].join(" ");
}
