// The Blender adapter's approval rules: which of its commands each shared rule covers, and what
// a call touches in words for the person asked, read from Blender (the selection, the open
// file) and from the data folder (whether a save's target exists).
import type { ApprovalRule } from "@dcc/executor";
import type { ApprovalHost } from "./approval-host.ts";
import { deleteRule } from "./delete-rule.ts";
import { openRule } from "./open-rule.ts";
import { overwriteRule } from "./overwrite-rule.ts";
import { renderRule } from "./render-rule.ts";

/**
 * The four shared rules (`delete`, `overwrite`, `open`, `render`) of a Blender adapter. Names of
 * operators a Blender lacks are listed too: a rule's command the adapter does not have is never
 * called.
 */
export function blenderApprovalRules(host: ApprovalHost): ApprovalRule[] {
  return [
    deleteRule(host),
    overwriteRule(host, host.operatorNames()),
    openRule(host),
    renderRule(host),
  ];
}
