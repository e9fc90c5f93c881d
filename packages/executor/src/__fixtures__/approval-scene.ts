// An in-memory DCC for the approval tests: a scene of named nodes with undo (each script a
// transaction that a rollback undoes), files it saves, and the rules it declares: `delete`
// (every delete of at least one node, named in the question) and `overwrite` (a save over a file
// that exists; a save to a new file is not covered). Every command that ran is noted in `ran`.
import { DccApiCatalog } from "@dcc/catalog";
import type { ApprovalCall, ApprovalQuestion, Approver } from "../approval.ts";
import type { DccAdapter } from "../dcc-adapter.ts";

/** The scene and what happened to it. */
export interface ApprovalScene {
  nodes: string[];
  files: Set<string>;
  /** Commands that ran, in order (`delete pSphere1`, `save a.mb`). */
  ran: string[];
  /** Transactions ended: `commit` or `rollback`. */
  ended: string[];
}

/** The scene adapter; `nodes` default pSphere1 to pSphere3, and `shot.mb` exists. */
export function approvalScene(options: { nodes?: string[] } = {}): DccAdapter & ApprovalScene {
  const adapter: DccAdapter & ApprovalScene = {
    dccName: "scene",
    nodes: options.nodes ?? ["pSphere1", "pSphere2", "pSphere3"],
    files: new Set(["shot.mb"]),
    ran: [],
    ended: [],
    commands: () => [
      { name: "ls", readOnly: true, handler: () => [...adapter.nodes] },
      {
        name: "create",
        handler: (args) => {
          const { name } = args as { name: string };
          adapter.ran.push(`create ${name}`);
          adapter.nodes.push(name);
          return name;
        },
      },
      {
        name: "delete",
        handler: (args) => {
          const { names } = args as { names: string[] };
          adapter.ran.push(`delete ${names.join(" ")}`);
          adapter.nodes = adapter.nodes.filter((node) => !names.includes(node));
          return names.length;
        },
      },
      {
        name: "save",
        handler: (args) => {
          const { path } = args as { path: string };
          adapter.ran.push(`save ${path}`);
          adapter.files.add(path);
          return path;
        },
      },
      {
        name: "publish",
        handler: (args) => {
          adapter.ran.push(`publish ${JSON.stringify(args)}`);
          return true;
        },
      },
    ],
    approvalRules: () => [
      {
        name: "delete",
        description: "deleting nodes",
        commands: ["delete"],
        covers: ({ args }: ApprovalCall) => {
          const { names } = args as { names: string[] };
          if (names.length === 0) return undefined;
          return `delete ${names.length} node${names.length === 1 ? "" : "s"}: ${names.join(", ")}`;
        },
      },
      {
        name: "overwrite",
        description: "writing over an existing file",
        commands: ["save"],
        covers: ({ args }: ApprovalCall) => {
          const { path } = args as { path: string };
          return adapter.files.has(path) ? `overwrite ${path}` : undefined;
        },
      },
    ],
    beginTransaction: async () => {
      const before = [...adapter.nodes];
      return {
        commit: async () => {
          adapter.ended.push("commit");
          return { rolledBack: false, undoStep: "scene script" };
        },
        rollback: async () => {
          adapter.ended.push("rollback");
          adapter.nodes = before;
          return { rolledBack: true };
        },
      };
    },
    catalog: () =>
      new DccApiCatalog("scene", {
        catalogText: "ls - list nodes\ncreate - add a node\ndelete - remove nodes\nsave - save",
      }),
  };
  return adapter;
}

/** An approver that notes each question and answers with `answer` (default: yes, by "tester"). */
export function recordingApprover(
  answer: (question: ApprovalQuestion) => ReturnType<Approver> = async () => ({
    approved: true,
    by: "tester",
  }),
): Approver & { questions: ApprovalQuestion[] } {
  const questions: ApprovalQuestion[] = [];
  const approve = (question: ApprovalQuestion) => {
    questions.push(question);
    return answer(question);
  };
  return Object.assign(approve, { questions });
}

/** A promise that settles once `signal` aborts (a question withdrawn). */
export function aborted(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve();
    else signal.addEventListener("abort", () => resolve(), { once: true });
  });
}
