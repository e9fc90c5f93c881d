import { type LinkedCommandSpec, readCommandSpecs } from "@dcc/linked-adapter";

/**
 * One data-API command: a command the Blender adapter implements on top of `bpy.data` and
 * `bpy.context` (read, write and list properties, call RNA functions, describe types), for work
 * that operators do only through the user interface. Declared once, as a command spec of
 * `@dcc/linked-adapter`, in `python/dcc_blender/commands.json`, which Blender's side registers.
 */
export interface BlenderDataCommand extends LinkedCommandSpec {
  /** `dispatch` calls that use it. */
  readonly examples: readonly string[];
}

const specsUrl = new URL("../python/dcc_blender/commands.json", import.meta.url);

let commands: readonly BlenderDataCommand[] | undefined;

/**
 * The data-API commands (`data.get`, `data.set`, `data.list`, `data.call`, `data.describe`),
 * hand-written in `python/dcc_blender/commands.json` (read by both sides); read once, then
 * cached and deeply frozen.
 */
export function blenderDataCommands(): readonly BlenderDataCommand[] {
  commands ??= readCommandSpecs(specsUrl) as readonly BlenderDataCommand[];
  return commands;
}
