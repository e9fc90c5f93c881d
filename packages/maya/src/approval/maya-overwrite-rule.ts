import { extname } from "node:path";
import type { ApprovalCall, ApprovalRule } from "@dcc/executor";
import { RuleCall } from "./internal/rule-call.ts";
import { type RuleHost, SceneReads } from "./internal/rule-host.ts";

// `file` flags that write the file in args[0] (long name, short name, what is written). Maya's
// short names are accepted for the ones scripts use most.
const exportFlags: ReadonlyArray<readonly [string, string | undefined, string]> = [
  ["exportAll", "ea", "an export of the whole scene"],
  ["exportSelected", "es", "an export of the selection"],
  ["exportSelectedStrict", undefined, "an export of the selection"],
  ["exportSelectedNoReference", undefined, "an export of the selection"],
  ["exportAsReference", undefined, "an export of the selection"],
  ["exportAnim", undefined, "an export of the animation"],
  ["exportSelectedAnim", undefined, "an export of the selection's animation"],
  ["exportAnimFromReference", undefined, "an export of the animation"],
  ["exportSelectedAnimFromReference", undefined, "an export of the selection's animation"],
];

// The extension Maya adds to a name without one (its default extensions), by file type.
const extensions: Readonly<Record<string, readonly string[]>> = {
  mayaAscii: [".ma"],
  mayaBinary: [".mb"],
  "FBX export": [".fbx"],
  OBJexport: [".obj"],
};

/** Where a write of `target` may land: the name as given, and with the type's extension. */
function candidates(target: string, type: string | undefined): string[] {
  if (extname(target) !== "") return [target];
  const added = type === undefined ? [".ma", ".mb"] : (extensions[type] ?? []);
  return [target, ...added.map((extension) => `${target}${extension}`)];
}

/** The first of the candidates that exists, or undefined. */
async function existing(reads: SceneReads, paths: readonly string[]): Promise<string | undefined> {
  for (const path of paths) {
    if (await reads.exists(path)) return path;
  }
  return undefined;
}

async function fileSummary(
  call: RuleCall,
  host: RuleHost,
  reads: SceneReads,
): Promise<string | undefined> {
  const type = call.text("type", "typ");
  const exported = exportFlags.find(([long, short]) =>
    short === undefined ? call.on(long) : call.on(long, short),
  );
  if (exported !== undefined) {
    const target = call.names()[0];
    // Without a file name the export fails before it writes anything.
    if (target === undefined) return undefined;
    const found = await existing(reads, candidates(target, type));
    return found === undefined
      ? undefined
      : `overwrite ${host.displayPath(found)} with ${exported[2]}`;
  }
  if (!call.on("save", "s")) return undefined;
  const renamed = call.text("rename", "rn");
  if (renamed !== undefined) {
    const found = await existing(reads, candidates(renamed, type));
    return found === undefined ? undefined : `overwrite ${host.displayPath(found)}`;
  }
  const current = await reads.sceneName();
  if (current === "") {
    return host.untitledSave === "fails"
      ? undefined
      : "save the untitled scene (Maya names the file itself, and it may exist)";
  }
  return (await reads.exists(current)) ? `overwrite ${host.displayPath(current)}` : undefined;
}

/**
 * The `overwrite` rule on Maya: a write over a file that exists. `file -save` (over the open
 * scene's file, or the `-rename` target of the same call), `file` exports (`-exportAll`,
 * `-exportSelected` and the other `-export*` flags, into args[0]) and `exportEdits`; a name
 * without an extension also counts as the one Maya adds for `-type`. A write to a new file, a
 * `-rename` alone and queries are not covered.
 */
export function mayaOverwriteRule(host: RuleHost): ApprovalRule {
  return Object.freeze({
    name: "overwrite",
    description: "writing over a file that exists (a save or an export)",
    commands: Object.freeze(["file", "exportEdits"]),
    covers: async ({ command, args, signal }: ApprovalCall): Promise<string | undefined> => {
      const call = new RuleCall(args);
      if (call.query) return undefined;
      const reads = new SceneReads(host, signal);
      if (command === "file") return fileSummary(call, host, reads);
      const target = call.names()[0];
      if (target === undefined) return undefined;
      const found = await existing(reads, candidates(target, call.text("type", "typ")));
      return found === undefined
        ? undefined
        : `overwrite ${host.displayPath(found)} with the reference edits`;
    },
  });
}
