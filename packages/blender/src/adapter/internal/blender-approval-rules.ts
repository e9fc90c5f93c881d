// The Blender adapter's approval rules: which of its commands each shared rule covers, and what
// a call touches in words for the person asked, read from Blender (the selection, the open
// file) and from the data folder (whether a save's target exists).
import { type ApprovalCall, type ApprovalRule, approvalRuleNames } from "@dcc/executor";
import { existingFile, resolveHostPath, shownPath } from "./approval-paths.ts";
import { dataBlockOf, dataCallKind } from "./data-call-path.ts";

/** What the rules need from the adapter. */
export interface ApprovalHost {
  /** The data folder, absolute. */
  dataDir(): string;
  /** The operators the adapter may have (every tested Blender's and the running one's). */
  operatorNames(): Iterable<string>;
  /** Calls a reading link method of Blender (`data.get`, `blender.file_state`), within `signal`. */
  call(method: string, params: Record<string, unknown>, signal: AbortSignal): Promise<unknown>;
}

/** Operators that remove objects or data-blocks. */
export const deleteOperators: readonly string[] = [
  "object.delete",
  "outliner.delete",
  "outliner.id_delete",
  "outliner.collection_hierarchy_delete",
  "outliner.orphans_purge",
  "scene.delete",
];

/** Operators that replace the open scene. */
export const openOperators: readonly string[] = [
  "wm.open_mainfile",
  "wm.read_homefile",
  "wm.read_factory_settings",
  "wm.revert_mainfile",
  "wm.recover_auto_save",
  "wm.recover_last_session",
];

/** Saves of the .blend file. */
const mainSaves = ["wm.save_mainfile", "wm.save_as_mainfile"];

/** Operators that write files other than through an exporter's name. */
const fileWriters = [
  "image.save",
  "image.save_as",
  "image.save_sequence",
  "image.save_all_modified",
  "uv.export_layout",
  "text.save_as",
  "sequencer.export_subtitles",
  "object.multires_external_save",
  "anim.keying_set_export",
];

// Renders and bakes (simulation bakes too): each may run for minutes. `viewport.screenshot` is
// left out on purpose: it is a look at the scene (Workbench, at most 1024 pixels a side, no file
// written), which an agent needs to work at all, not a render a person waits for.
/** Operators that render or bake. */
export const renderOperators: readonly string[] = [
  "render.render",
  "render.opengl",
  "object.bake",
  "object.bake_image",
  "ptcache.bake",
  "ptcache.bake_all",
  "ptcache.bake_from_cache",
  "fluid.bake_all",
  "fluid.bake_data",
  "fluid.bake_guides",
  "fluid.bake_mesh",
  "fluid.bake_noise",
  "fluid.bake_particles",
  "dpaint.bake",
  "object.ocean_bake",
  "object.simulation_nodes_cache_bake",
  "object.geometry_node_bake_single",
  "object.lightprobe_cache_bake",
  "scene.light_cache_bake",
  "rigidbody.bake_to_keyframes",
];

/** Whether an operator writes files by the exporter's naming (`export_scene.fbx`, `wm.obj_export`). */
export function isExporter(name: string): boolean {
  return (
    /^export_[a-z_]+\.|\.[a-z_]*export[a-z_]*$/.test(name) &&
    !/^collection\.exporter_(add|move|remove)$/.test(name)
  );
}

/**
 * The four shared rules (`delete`, `overwrite`, `open`, `render`) of a Blender adapter. Names of
 * operators a Blender lacks are listed too: a rule's command the adapter does not have is never
 * called.
 */
export function blenderApprovalRules(host: ApprovalHost): ApprovalRule[] {
  const read = (path: string, signal: AbortSignal): Promise<unknown> =>
    host.call("data.get", { path }, signal);
  const fileState = async (
    signal: AbortSignal,
  ): Promise<{ filepath: string; unsaved: boolean }> => {
    const state = (await host.call("blender.file_state", {}, signal)) as {
      filepath?: unknown;
      unsaved?: unknown;
    };
    if (typeof state?.filepath !== "string" || typeof state.unsaved !== "boolean") {
      throw new Error("blender.file_state gave no file state");
    }
    return { filepath: state.filepath, unsaved: state.unsaved };
  };
  const exporters = [...new Set(host.operatorNames())].filter(isExporter).sort();
  return [
    {
      name: approvalRuleNames.delete,
      description: "deleting objects or data-blocks",
      commands: [...deleteOperators, "data.call"],
      covers: (call) => deleteSummary(call, read),
    },
    {
      name: approvalRuleNames.overwrite,
      description: "writing over a file that exists (a save or an export)",
      commands: [...new Set([...mainSaves, ...exporters, ...fileWriters, "data.call"])],
      covers: (call) => overwriteSummary(call, host.dataDir(), fileState, read),
    },
    {
      name: approvalRuleNames.open,
      description: "replacing the open scene while it has unsaved changes",
      commands: [...openOperators],
      covers: (call) => openSummary(call, host.dataDir(), fileState),
    },
    {
      name: approvalRuleNames.render,
      description: "a render or a bake",
      commands: [...renderOperators],
      covers: (call) => renderSummary(call, read),
    },
  ];
}

type Read = (path: string, signal: AbortSignal) => Promise<unknown>;
type FileState = (signal: AbortSignal) => Promise<{ filepath: string; unsaved: boolean }>;

function argsOf(call: ApprovalCall): Record<string, unknown> {
  return typeof call.args === "object" && call.args !== null && !Array.isArray(call.args)
    ? (call.args as Record<string, unknown>)
    : {};
}

/** `"3 objects: Cube, Sphere, Light"`, at most ten names shown. */
export function countedNames(noun: string, names: readonly string[]): string {
  const shown = names.slice(0, 10).join(", ");
  const more = names.length > 10 ? ` and ${names.length - 10} more` : "";
  return `${names.length} ${names.length === 1 ? noun : pluralOf(noun)}: ${shown}${more}`;
}

function pluralOf(noun: string): string {
  return /(s|sh|ch|x)$/.test(noun) ? `${noun}es` : `${noun}s`;
}

/** `meshes` -> `mesh`, `node_groups` -> `node group`. */
function singularOf(collection: string): string {
  const words = collection.replace(/_/g, " ");
  if (/(sh|ch|x)es$/.test(words)) return words.slice(0, -2);
  return words.endsWith("s") ? words.slice(0, -1) : words;
}

/** The names of data-blocks as `data.get` gives them (`{ type, name }` each), sorted. */
function namesOf(value: unknown): string[] {
  if (!Array.isArray(value)) throw new Error("not a list of data-blocks");
  return value
    .map((item) => {
      const name = (item as { name?: unknown } | null)?.name;
      if (typeof name !== "string") throw new Error("a data-block without a name");
      return name;
    })
    .sort();
}

/** The name of the data-block a `{ "$path": ... }` argument names, read from Blender when needed. */
async function blockName(value: unknown, read: Read, signal: AbortSignal): Promise<string> {
  const path = (value as { $path?: unknown } | null)?.$path;
  if (typeof path !== "string") return JSON.stringify(value);
  const block = dataBlockOf(path);
  if (block !== undefined) return block.name;
  try {
    const name = ((await read(path, signal)) as { name?: unknown } | null)?.name;
    return typeof name === "string" ? name : path;
  } catch {
    return path;
  }
}

async function deleteSummary(call: ApprovalCall, read: Read): Promise<string | undefined> {
  const args = argsOf(call);
  switch (call.command) {
    case "object.delete": {
      // It deletes the selected objects: name them (nothing selected, nothing deleted).
      const names = namesOf(await read("context.selected_objects", call.signal));
      if (names.length === 0) return undefined;
      const everywhere = args["use_global"] === true ? " from every scene" : "";
      return `delete ${countedNames("object", names)}${everywhere}`;
    }
    case "scene.delete": {
      const name = await read("context.scene.name", call.signal);
      return `delete ${countedNames("scene", [String(name)])}`;
    }
    case "outliner.delete":
      return "delete what is selected in the Outliner";
    case "outliner.id_delete":
      return "delete the data-blocks selected in the Outliner";
    case "outliner.collection_hierarchy_delete":
      return "delete the collections selected in the Outliner, with the collections inside them";
    case "outliner.orphans_purge":
      return "delete every data-block nothing uses (purge orphans)";
    case "data.call":
      return dataCallRemoval(args, read, call.signal);
    default:
      return call.command;
  }
}

async function dataCallRemoval(
  args: Record<string, unknown>,
  read: Read,
  signal: AbortSignal,
): Promise<string | undefined> {
  const kind = dataCallKind(args["path"]);
  if (kind === undefined || kind.kind === "image-save") return undefined;
  if (kind.kind === "purge") return "delete every data-block nothing uses (purge orphans)";
  const given = [...((args["args"] as unknown[] | undefined) ?? [])];
  const kwargs = (args["kwargs"] as Record<string, unknown> | undefined) ?? {};
  if (kind.kind === "batch-remove") {
    const ids = given[0] ?? kwargs["ids"];
    const list = Array.isArray(ids) ? ids : [];
    const names = await Promise.all(list.map((id) => blockName(id, read, signal)));
    return `delete ${countedNames("data-block", names)}`;
  }
  // The removed data-block is the first argument (`object`, `mesh`, `material`, ...).
  const target = given[0] ?? Object.values(kwargs).find((value) => isPathArgument(value));
  const name = target === undefined ? "(not named)" : await blockName(target, read, signal);
  return `delete ${countedNames(singularOf(kind.collection), [name])}`;
}

function isPathArgument(value: unknown): boolean {
  return typeof (value as { $path?: unknown } | null)?.$path === "string";
}

async function overwriteSummary(
  call: ApprovalCall,
  dataDir: string,
  fileState: FileState,
  read: Read,
): Promise<string | undefined> {
  const args = argsOf(call);
  let filepath = args["filepath"];
  let blendFile: string | undefined;
  const blend = async (): Promise<string> => {
    blendFile ??= (await fileState(call.signal)).filepath;
    return blendFile;
  };
  if (call.command === "data.call") {
    const kind = dataCallKind(args["path"]);
    if (kind?.kind !== "image-save") return undefined;
    const kwargs = (args["kwargs"] as Record<string, unknown> | undefined) ?? {};
    const given = (args["args"] as unknown[] | undefined) ?? [];
    filepath = kwargs["filepath"] ?? given[0];
    if (typeof filepath !== "string" || filepath === "") {
      if (kind.function === "save_render") return undefined; // Blender refuses it without a path.
      filepath = await read(`images[${JSON.stringify(kind.image)}].filepath_raw`, call.signal);
      if (typeof filepath !== "string" || filepath === "") return undefined;
    }
  } else if (
    mainSaves.includes(call.command) &&
    (typeof filepath !== "string" || filepath === "")
  ) {
    // Without a path, a save writes over the open file (and fails when there is none).
    const open = await blend();
    if (open === "") return undefined;
    return `overwrite the open file ${shownPath(dataDir, open)}`;
  }
  if (typeof filepath !== "string" || filepath === "") {
    return `${call.command} writes over the files it saves to`;
  }
  const needsBlend = filepath.startsWith("//");
  const target = resolveHostPath(filepath, { dataDir, blendFile: needsBlend ? await blend() : "" });
  const existing = await existingFile(target);
  return existing === undefined ? undefined : `overwrite ${shownPath(dataDir, existing)}`;
}

async function openSummary(
  call: ApprovalCall,
  dataDir: string,
  fileState: FileState,
): Promise<string | undefined> {
  const state = await fileState(call.signal);
  if (!state.unsaved) return undefined;
  const args = argsOf(call);
  const current =
    state.filepath === ""
      ? "the unsaved scene"
      : `the open scene ${shownPath(dataDir, state.filepath)}`;
  let replacement: string;
  switch (call.command) {
    case "wm.open_mainfile": {
      const filepath = args["filepath"];
      replacement =
        typeof filepath === "string" && filepath !== ""
          ? shownPath(dataDir, resolveHostPath(filepath, { dataDir, blendFile: state.filepath }))
          : "another file";
      break;
    }
    case "wm.revert_mainfile":
      return `revert ${current} to its saved state, losing its unsaved changes`;
    case "wm.read_homefile":
      replacement = "the start-up file";
      break;
    case "wm.read_factory_settings":
      replacement = "the factory start-up scene";
      break;
    case "wm.recover_auto_save":
      replacement = "an auto-save";
      break;
    case "wm.recover_last_session":
      replacement = "the last session";
      break;
    default:
      replacement = `what ${call.command} loads`;
  }
  return `replace ${current}, losing its unsaved changes, with ${replacement}`;
}

async function renderSummary(call: ApprovalCall, read: Read): Promise<string> {
  const args = argsOf(call);
  switch (call.command) {
    case "render.render":
    case "render.opengl": {
      const scene =
        typeof args["scene"] === "string" && args["scene"] !== ""
          ? (args["scene"] as string)
          : String(await read("context.scene.name", call.signal));
      const at = `scenes[${JSON.stringify(scene)}]`;
      const [engine, width, height, percent, frame, start, end] = await Promise.all(
        [
          "render.engine",
          "render.resolution_x",
          "render.resolution_y",
          "render.resolution_percentage",
          "frame_current",
          "frame_start",
          "frame_end",
        ].map((path) => read(`${at}.${path}`, call.signal)),
      );
      const scale = Number(percent) / 100;
      const size = `${Math.round(Number(width) * scale)}×${Math.round(Number(height) * scale)}`;
      const frames = args["animation"] === true ? `frames ${start}–${end}` : `frame ${frame}`;
      const how = call.command === "render.opengl" ? "the viewport (OpenGL)" : String(engine);
      return `render ${frames} of scene ${scene} with ${how} at ${size}`;
    }
    case "object.bake":
    case "object.bake_image": {
      const names = namesOf(await read("context.selected_objects", call.signal));
      const type = typeof args["type"] === "string" ? ` ${args["type"]}` : "";
      return `bake${type} maps of ${countedNames("object", names)}`;
    }
    default:
      return `bake (${call.command})`;
  }
}
