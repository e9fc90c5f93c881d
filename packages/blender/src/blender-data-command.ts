import { readFileSync } from "node:fs";
import { deepFreeze } from "./internal/deep-freeze.ts";

/**
 * One data-API command: a command the Blender adapter implements on top of `bpy.data` and
 * `bpy.context` (read, write and list properties, call RNA functions, describe types), for work
 * that operators do only through the user interface.
 */
export interface BlenderDataCommand {
  /** The command name, e.g. `data.get`. */
  readonly name: string;
  /** TypeScript-like call text. */
  readonly signature: string;
  /** What it does and which paths it takes. */
  readonly description: string;
  /** `dispatch` calls that use it. */
  readonly examples: readonly string[];
}

const dataUrl = new URL("./data/data-commands.json", import.meta.url);

let commands: readonly BlenderDataCommand[] | undefined;

/**
 * The data-API commands (`data.get`, `data.set`, `data.list`, `data.call`, `data.describe`),
 * hand-written in `src/data/data-commands.json`; read once, then cached and deeply frozen.
 */
export function blenderDataCommands(): readonly BlenderDataCommand[] {
  commands ??= deepFreeze(JSON.parse(readFileSync(dataUrl, "utf8")) as BlenderDataCommand[]);
  return commands;
}
