// The `delete` rule on Blender: object and data-block removals, by operator or by `data.call`
// (`objects.remove`), worded with the names of what goes (an operator on the selection asks
// Blender what is selected).
import { type ApprovalCall, type ApprovalRule, approvalRuleNames } from "@dcc/executor";
import {
  type ApprovalHost,
  argsOf,
  blockName,
  callArguments,
  countedNames,
  namesOf,
  type Read,
  readOf,
  singularOf,
} from "./approval-host.ts";
import { dataCallKind } from "./data-call-path.ts";

// Edits inside a data-block (vertices, keyframes, nodes, modifiers) are not under it: they are
// the ordinary work of a script, as adding them is.
/** Operators that remove objects or data-blocks. */
export const deleteOperators: readonly string[] = [
  "object.delete",
  "outliner.delete",
  "outliner.id_delete",
  "outliner.collection_hierarchy_delete",
  "outliner.orphans_purge",
  "scene.delete",
];

/** The `delete` rule: {@link deleteOperators} and `data.call` removals of data-blocks. */
export function deleteRule(host: ApprovalHost): ApprovalRule {
  const read = readOf(host);
  return {
    name: approvalRuleNames.delete,
    description: "deleting objects or data-blocks",
    commands: [...deleteOperators, "data.call"],
    covers: (call) => deleteSummary(call, read),
  };
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
  const { given, kwargs } = callArguments(args);
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
