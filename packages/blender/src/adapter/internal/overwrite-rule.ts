// The `overwrite` rule on Blender: saves and exports, and `data.call` image saves, when the file
// they write is there already (resolved as the host resolves it, looked for from Node). A save
// without a path writes over the open file.
import { type ApprovalCall, type ApprovalRule, approvalRuleNames } from "@dcc/executor";
import {
  type ApprovalHost,
  argsOf,
  callArguments,
  type FileState,
  fileStateOf,
  type Read,
  readOf,
} from "./approval-host.ts";
import { existingFile, resolveHostPath, shownPath } from "./approval-paths.ts";
import { dataCallKind } from "./data-call-path.ts";

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

/** Whether an operator writes files by the exporter's naming (`export_scene.fbx`, `wm.obj_export`). */
export function isExporter(name: string): boolean {
  return (
    /^export_[a-z_]+\.|\.[a-z_]*export[a-z_]*$/.test(name) &&
    !/^collection\.exporter_(add|move|remove)$/.test(name)
  );
}

/**
 * The `overwrite` rule: the saves, every exporter among `operatorNames` ({@link isExporter}),
 * the other file writers and `data.call`.
 */
export function overwriteRule(host: ApprovalHost, operatorNames: Iterable<string>): ApprovalRule {
  const exporters = [...new Set(operatorNames)].filter(isExporter).sort();
  const read = readOf(host);
  const fileState = fileStateOf(host);
  return {
    name: approvalRuleNames.overwrite,
    description: "writing over a file that exists (a save or an export)",
    commands: [...new Set([...mainSaves, ...exporters, ...fileWriters, "data.call"])],
    covers: (call) => overwriteSummary(call, host.dataDir(), fileState, read),
  };
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
    const { given, kwargs } = callArguments(args);
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
