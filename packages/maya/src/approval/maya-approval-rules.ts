import type { ApprovalRule } from "@dcc/executor";
import type { MayaSceneQuery, RuleHost } from "./internal/rule-host.ts";
import { mayaDeleteRule } from "./maya-delete-rule.ts";
import { mayaOpenRule } from "./maya-open-rule.ts";
import { mayaOverwriteRule } from "./maya-overwrite-rule.ts";
import { mayaRenderRule } from "./maya-render-rule.ts";

/** Options for {@link mayaApprovalRules}. */
export interface MayaApprovalRulesOptions {
  /**
   * Runs one read-only `maya.cmds` query (`ls -selection`, `file -query -modified`,
   * `file -query -sceneName`, `file -query -exists`, `currentTime -query`) on the adapter's
   * host, within the signal: how a rule learns what a call touches.
   */
  query: MayaSceneQuery;
  /** A path as the person asked reads it; default the path as it is. */
  displayPath?: ((path: string) => string) | undefined;
  /** What `file -save` does in an untitled scene; default `unknown` (asked). */
  untitledSave?: "fails" | "unknown" | undefined;
}

/**
 * The approval rules of a Maya adapter, for the four shared names: `delete`, `overwrite`,
 * `open` and `render` (see each rule's file for the commands it covers). Both the simulated
 * and the linked adapter declare these; they differ only in how they read the scene.
 */
export function mayaApprovalRules(options: MayaApprovalRulesOptions): readonly ApprovalRule[] {
  const host: RuleHost = {
    query: options.query,
    displayPath: options.displayPath ?? ((path) => path),
    untitledSave: options.untitledSave ?? "unknown",
  };
  return Object.freeze([
    mayaDeleteRule(host),
    mayaOverwriteRule(host),
    mayaOpenRule(host),
    mayaRenderRule(host),
  ]);
}
