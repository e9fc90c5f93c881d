import { isAbsolute, relative } from "node:path";
import type { ApprovalCall, ApprovalRule } from "@dcc/executor";
import type { LinkedCaller } from "@dcc/linked-adapter";
import { mayaApprovalRules } from "../../approval/maya-approval-rules.ts";
import { mayaPolicyRefusal } from "../maya-policy.ts";
import { toMayaCall } from "./maya-call.ts";

/** Bound on one scene query of an approval rule (a throw asks with a plain summary). */
const ruleQueryMs = 30_000;

/**
 * The Maya rules over the link: a rule reads the scene with read-only `maya.cmd` queries; a call
 * the policy refuses is never asked about (it does not run); paths inside the data folder are
 * shown relative to it.
 */
export function linkedMayaApprovalRules(
  state: () => {
    caller: LinkedCaller | undefined;
    dataDir: string | undefined;
    allow: readonly string[];
  },
): readonly ApprovalRule[] {
  const rules = mayaApprovalRules({
    query: (command, args, signal) => {
      const { caller } = state();
      if (caller === undefined) throw new Error("Maya has not been started");
      const call = toMayaCall(args);
      return caller.call(
        command,
        "maya.cmd",
        { command, args: call.args, flags: call.flags },
        AbortSignal.any([signal, AbortSignal.timeout(ruleQueryMs)]),
      );
    },
    displayPath: (path) => {
      const { dataDir } = state();
      if (dataDir === undefined || !isAbsolute(path)) return path;
      const inside = relative(dataDir, path);
      return inside === "" || inside.startsWith("..") || isAbsolute(inside) ? path : inside;
    },
  });
  return rules.map((rule) => {
    const covers = rule.covers;
    if (covers === undefined) return rule;
    return Object.freeze({
      ...rule,
      covers: (call: ApprovalCall) => {
        const { dataDir, allow } = state();
        const refused =
          dataDir !== undefined &&
          mayaPolicyRefusal(call.command, toMayaCall(call.args), { dataDir, allow }) !== undefined;
        return refused ? undefined : covers(call);
      },
    });
  });
}
