/**
 * The rules adapters declare for commands that run only after a person says yes. The names are
 * shared across adapters, so `--ask delete` means the same on every DCC; an adapter declares
 * which of its commands each one covers.
 */
export const approvalRuleNames: {
  /** Removing nodes, objects or data. */
  readonly delete: "delete";
  /** Writing a file over one that exists (a save or an export). */
  readonly overwrite: "overwrite";
  /** Replacing the open scene while it has unsaved changes. */
  readonly open: "open";
  /** A render or a bake. */
  readonly render: "render";
} = { delete: "delete", overwrite: "overwrite", open: "open", render: "render" } as const;

/** A command call an {@link ApprovalRule} is asked about. */
export interface ApprovalCall {
  /** The command's name. */
  readonly command: string;
  /** Its arguments, as the script passed them (plain JSON, already checked against the schema). */
  readonly args: unknown;
  /** Aborts when the script stops: a rule that asks the host something gives up then. */
  readonly signal: AbortSignal;
}

/**
 * A rule whose commands run only after a person approves them. An adapter declares its rules
 * (see `DccAdapter.approvalRules`); a server turns on the ones it was asked to (`--ask`).
 */
export interface ApprovalRule {
  /** The rule's name: one of {@link approvalRuleNames}, or a custom name (kebab-case). */
  readonly name: string;
  /** What it guards, in a few words for the person asked, e.g. `"deleting nodes or data"`. */
  readonly description: string;
  /**
   * The commands it may cover. Only calls of these are looked at, and none of them runs on a
   * dispatch lane while the rule is on.
   */
  readonly commands: readonly string[];
  /**
   * Whether this call falls under the rule and, when it does, what it touches in words for the
   * person asked (`"delete 3 nodes: pSphere1, pSphere2, pSphere3"`); undefined when it does not
   * (a save to a new file, an open over a scene without changes). It may ask the host, within
   * `call.signal`. A throw counts as covered: the question is asked with a plain summary.
   * Without it every call of `commands` is covered.
   */
  covers?(call: ApprovalCall): string | undefined | Promise<string | undefined>;
}

/** One question put to a person: may this command run? */
export interface ApprovalQuestion {
  /** The DCC the script runs on (the executor's name). */
  readonly dccName: string;
  /** The rule that asks. */
  readonly rule: string;
  /** What the rule guards (its `description`). */
  readonly ruleDescription: string;
  /** The command waiting for the answer. */
  readonly command: string;
  /** What the command touches, e.g. `"delete 3 nodes: pSphere1, pSphere2, pSphere3"`. */
  readonly summary: string;
  /**
   * Aborts when the question is withdrawn: the script was stopped, or the bound on questions
   * passed. An approver stops asking then (its answer no longer counts).
   */
  readonly signal: AbortSignal;
}

/** Why a command under a rule did not run. */
export type ApprovalDenialReason =
  /** The person said no. */
  | "declined"
  /** The person dismissed the question without choosing. */
  | "cancelled"
  /** No answer came within the bound on questions. */
  | "timeout"
  /** The client cannot ask anybody (it declared no elicitation support). */
  | "unanswerable"
  /** Nobody is there to ask (an async or farm job without a pre-approval). */
  | "no-one-to-ask";

/** The answer to an {@link ApprovalQuestion}. */
export type ApprovalAnswer =
  | {
      readonly approved: true;
      /** Who answered (the client's label), for the audit. */
      readonly by?: string | undefined;
    }
  | {
      readonly approved: false;
      readonly reason: ApprovalDenialReason;
      /** Who answered, when anybody did. */
      readonly by?: string | undefined;
      /** Why, in words an agent can act on; a default is worded from `reason` without it. */
      readonly message?: string | undefined;
    };

/**
 * Asks a person an {@link ApprovalQuestion} (an MCP server asks its client). It should settle
 * soon after `question.signal` aborts; a rejection counts as a `cancelled` answer.
 */
export type Approver = (question: ApprovalQuestion) => Promise<ApprovalAnswer>;

/** What a script's approvals record: one entry per question asked or answered in advance. */
export interface ExecuteApproval {
  /** The rule. */
  readonly rule: string;
  /** The first command that needed it. */
  readonly command: string;
  /** What that command touched. */
  readonly summary: string;
  /** `approved`, `preapproved`, or why it was denied. */
  readonly answer: "approved" | "preapproved" | ApprovalDenialReason;
  /** Who answered, when known. */
  readonly by?: string;
  /** How long the script waited for the answer, in milliseconds. */
  readonly waitedMs: number;
}

/** Options for {@link commandApprovalRule}. */
export interface CommandApprovalRuleOptions {
  /** The rule's name, e.g. `"publish"`. */
  name: string;
  /** The commands it covers, every call of each. */
  commands: readonly string[];
  /** What it guards; default `"running <commands>"`. */
  description?: string;
}

/**
 * A custom rule that covers every call of the named commands, with the call's arguments (cut to
 * 160 characters; none for null) as what it touches. This is what `--ask-rule publish=exportAll,file` builds.
 */
export function commandApprovalRule(options: CommandApprovalRuleOptions): ApprovalRule {
  const commands = Object.freeze([...options.commands]);
  return Object.freeze({
    name: options.name,
    description: options.description ?? `running ${commands.join(", ")}`,
    commands,
    covers: ({ command, args }: ApprovalCall): string => {
      // A script's `dispatch(name)` sends null: no arguments to show.
      const text = args === undefined || args === null ? "" : JSON.stringify(args);
      const shown = text.length > 160 ? `${text.slice(0, 159)}…` : text;
      return shown === "" ? command : `${command} ${shown}`;
    },
  });
}
