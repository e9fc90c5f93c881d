import type { ApprovalCall, ApprovalRule } from "@dcc/executor";
import { RuleCall } from "./internal/rule-call.ts";
import { type RuleHost, SceneReads } from "./internal/rule-host.ts";

/**
 * The `open` rule on Maya: `file -open` and `file -newFile` with `-force` while the open scene
 * has unsaved changes (`file -query -modified`). Without `-force` Maya refuses to replace a
 * modified scene ("Unsaved changes"), so nothing is lost and nothing is asked; `-import` and
 * `-reference` add to the scene and are not covered.
 */
export function mayaOpenRule(host: RuleHost): ApprovalRule {
  return Object.freeze({
    name: "open",
    description: "replacing the open scene while it has unsaved changes",
    commands: Object.freeze(["file"]),
    covers: async ({ args, signal }: ApprovalCall): Promise<string | undefined> => {
      const call = new RuleCall(args);
      if (call.query || !call.on("force", "f")) return undefined;
      const opening = call.on("open", "o");
      if (!opening && !call.on("newFile", "new")) return undefined;
      const reads = new SceneReads(host, signal);
      if (!(await reads.modified())) return undefined;
      const current = await reads.sceneName();
      const scene =
        current === "" ? "the open scene" : `the open scene ${host.displayPath(current)}`;
      const target = call.names()[0];
      const next = !opening
        ? "a new, empty scene"
        : target === undefined
          ? "another scene"
          : host.displayPath(target);
      return `replace ${scene} (unsaved changes) with ${next}`;
    },
  });
}
