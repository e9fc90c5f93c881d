// The `open` rule on Blender: loads that replace the open scene, covered only while it has
// unsaved changes (the host's own mark: see python/dcc_blender/unsaved.py).

import { resolve } from "node:path";
import { type ApprovalCall, type ApprovalRule, approvalRuleNames } from "@dcc/executor";
import { type ApprovalHost, argsOf, type FileState, fileStateOf } from "./approval-host.ts";
import { resolveHostPath, shownPath } from "./approval-paths.ts";

/** Operators that replace the open scene. */
export const openOperators: readonly string[] = [
  "wm.open_mainfile",
  "wm.read_homefile",
  "wm.read_factory_settings",
  "wm.revert_mainfile",
  "wm.recover_auto_save",
  "wm.recover_last_session",
];

/** The `open` rule: {@link openOperators}. */
export function openRule(host: ApprovalHost): ApprovalRule {
  const fileState = fileStateOf(host);
  return {
    name: approvalRuleNames.open,
    description: "replacing the open scene while it has unsaved changes",
    commands: [...openOperators],
    covers: (call) => openSummary(call, host.dataDir(), fileState),
  };
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
      if (typeof filepath !== "string" || filepath === "") {
        replacement = "another file";
        break;
      }
      const target = resolveHostPath(filepath, { dataDir, blendFile: state.filepath });
      if (state.filepath !== "" && target === resolve(state.filepath)) {
        return `reload ${shownPath(dataDir, target)}, losing the open scene's unsaved changes`;
      }
      replacement = shownPath(dataDir, target);
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
