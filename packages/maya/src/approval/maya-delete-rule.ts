import type { ApprovalCall, ApprovalRule } from "@dcc/executor";
import { nameList } from "./internal/name-list.ts";
import { RuleCall } from "./internal/rule-call.ts";
import { type RuleHost, SceneReads } from "./internal/rule-host.ts";

// `delete` flags that remove part of what the objects carry instead of the objects (long name,
// short name, words). Their modifiers (attribute, hierarchy, shape, controlPoints) say which.
const dataFlags: ReadonlyArray<readonly [string, string, string]> = [
  ["constructionHistory", "ch", "construction history"],
  ["channels", "c", "animation channels"],
  ["staticChannels", "sc", "static animation channels"],
  ["unitlessAnimationCurves", "uac", "unitless animation curves"],
  ["timeAnimationCurves", "tac", "time animation curves"],
  ["constraints", "cn", "constraints"],
  ["expressions", "e", "expressions"],
  ["motionPaths", "mp", "motion paths"],
  ["inputConnectionsAndNodes", "icn", "input connections (and the nodes they leave unconnected)"],
];

const nodes = ["node", "nodes"] as const;

/** The objects a call names, or the selection it acts on when it names none. */
async function targets(
  call: RuleCall,
  reads: SceneReads,
  noun: readonly [string, string] = nodes,
): Promise<string> {
  const named = call.names();
  if (named.length > 0) return nameList(named, noun);
  const selected = await reads.selection();
  return selected.length === 0
    ? "the selection (nothing is selected now)"
    : `the selection (${nameList(selected, noun)})`;
}

async function deleteSummary(call: RuleCall, reads: SceneReads): Promise<string> {
  const kinds = dataFlags
    .filter(([long, short]) => call.on(long, short))
    .map(([, , words]) => words);
  if (call.on("all")) {
    return `delete all ${kinds.length === 0 ? "objects" : kinds.join(" and ")} in the scene`;
  }
  const what = await targets(call, reads);
  return kinds.length === 0 ? `delete ${what}` : `delete the ${kinds.join(" and ")} of ${what}`;
}

/**
 * The `delete` rule on Maya: the commands that remove nodes. `delete` (objects, or the
 * selection when it names none; also its flags that remove history, keys, constraints or
 * expressions), `removeJoint`, and `namespace -removeNamespace` with `-deleteNamespaceContent`
 * (every node in it). Edits that keep the nodes (`deleteAttr`, `removeMultiInstance`, `cutKey`,
 * `disconnectAttr`) are not deletions; nor is `file -removeReference` (the nodes stay in their
 * file).
 */
export function mayaDeleteRule(host: RuleHost): ApprovalRule {
  return Object.freeze({
    name: "delete",
    description: "deleting nodes or what they carry (history, keys, constraints)",
    commands: Object.freeze(["delete", "removeJoint", "namespace"]),
    covers: async ({ command, args, signal }: ApprovalCall): Promise<string | undefined> => {
      const call = new RuleCall(args);
      if (call.query) return undefined;
      const reads = new SceneReads(host, signal);
      if (command === "delete") return deleteSummary(call, reads);
      if (command === "removeJoint") {
        return `remove ${await targets(call, reads, ["joint", "joints"])} from the skeleton`;
      }
      const namespace = call.text("removeNamespace", "rm");
      if (namespace === undefined || !call.on("deleteNamespaceContent", "dnc")) return undefined;
      return `delete the namespace ${namespace} and every node in it`;
    },
  });
}
