// The approval rules of one script: before a command under an active rule reaches the host, the
// script waits for a person's answer (its clock stopped). One answer covers the rest of the
// script for that rule; a denial is the command's CommandError, and nothing of it ran.
import type {
  ApprovalAnswer,
  ApprovalDenialReason,
  ApprovalRule,
  Approver,
  ExecuteApproval,
} from "../approval.ts";
import { CommandError } from "../command-error.ts";
import { commandErrorCodes } from "../command-error-code.ts";
import type { ScriptClock } from "./script-clock.ts";

/** What an {@link ApprovalGate} needs from its script. */
export interface ApprovalGateOptions {
  dccName: string;
  /** The rules that are on. */
  rules: readonly ApprovalRule[];
  /** Bound on one question, in milliseconds. */
  timeoutMs: number;
  /** Asks a person; undefined when nobody is there to ask. */
  approve: Approver | undefined;
  /** Rules answered yes in advance (a job's pre-approval). */
  preapproved: readonly string[];
  /** Stopped while a question is open. */
  clock: ScriptClock;
  /** Aborts when the script stops: an open question is withdrawn. */
  stop: AbortSignal;
}

/** How one rule stands in a script. */
type RuleState =
  | { readonly status: "approved" }
  | {
      readonly status: "denied";
      readonly reason: ApprovalDenialReason;
      /** The answer's own words, if it gave any. */
      readonly message: string | undefined;
    };

/** A script's approval rules, asked at most once each. */
export class ApprovalGate {
  readonly #options: ApprovalGateOptions;
  /** Rules by command name, in the order given. */
  readonly #byCommand = new Map<string, ApprovalRule[]>();
  readonly #states = new Map<string, RuleState>();
  readonly #chains = new Map<string, Promise<void>>();
  readonly #records: ExecuteApproval[] = [];

  constructor(options: ApprovalGateOptions) {
    this.#options = options;
    for (const rule of options.rules) {
      for (const command of rule.commands) {
        const rules = this.#byCommand.get(command) ?? [];
        rules.push(rule);
        this.#byCommand.set(command, rules);
      }
    }
  }

  /** Whether any active rule may cover `command` (such commands stay off the dispatch lane). */
  guards(command: string): boolean {
    return this.#byCommand.has(command);
  }

  /**
   * Checks one call: undefined when no rule looks at it (the common case, answered at once);
   * otherwise a promise of undefined (it may run) or the `APPROVAL_DENIED` error it fails with.
   */
  check(command: string, args: unknown): Promise<CommandError | undefined> | undefined {
    const rules = this.#byCommand.get(command);
    if (rules === undefined) return undefined;
    return this.#checkRules(rules, command, args);
  }

  /** The questions of the script, in the order they were settled; undefined for none. */
  records(): ExecuteApproval[] | undefined {
    return this.#records.length === 0 ? undefined : [...this.#records];
  }

  async #checkRules(
    rules: readonly ApprovalRule[],
    command: string,
    args: unknown,
  ): Promise<CommandError | undefined> {
    for (const rule of rules) {
      const denied = await this.#checkRule(rule, command, args);
      if (denied !== undefined) return denied;
    }
    return undefined;
  }

  /** Checks of one rule run one after another, so concurrent calls share one question. */
  #checkRule(
    rule: ApprovalRule,
    command: string,
    args: unknown,
  ): Promise<CommandError | undefined> {
    const previous = this.#chains.get(rule.name);
    const check = (async () => {
      if (previous !== undefined) await previous;
      return this.#checkRuleNow(rule, command, args);
    })();
    this.#chains.set(
      rule.name,
      check.then(
        () => undefined,
        () => undefined,
      ),
    );
    return check;
  }

  async #checkRuleNow(
    rule: ApprovalRule,
    command: string,
    args: unknown,
  ): Promise<CommandError | undefined> {
    const state = this.#states.get(rule.name);
    if (state?.status === "approved") return undefined;
    // Whether the rule covers this call is the host's time, not the person's: the clock runs
    // meanwhile, so the script's deadline bounds a rule that asks the host (its signal aborts).
    const summary = await this.#summary(rule, command, args);
    if (summary === undefined) return undefined;
    // A denied rule still lets through the calls it does not cover (a save to a new file).
    if (state?.status === "denied") return this.#denial(rule, command, summary, state);
    const resume = this.#options.clock.pause();
    try {
      return await this.#ask(rule, command, summary);
    } finally {
      resume();
    }
  }

  /** What the call touches, or undefined when the rule does not cover it. */
  async #summary(rule: ApprovalRule, command: string, args: unknown): Promise<string | undefined> {
    if (rule.covers === undefined) return command;
    try {
      const summary = await rule.covers({ command, args, signal: this.#options.stop });
      return summary === undefined ? undefined : oneLine(summary) || command;
    } catch {
      // A rule that cannot tell asks: a question too many is safer than a change unasked.
      return command;
    }
  }

  async #ask(
    rule: ApprovalRule,
    command: string,
    summary: string,
  ): Promise<CommandError | undefined> {
    const { preapproved, approve, timeoutMs, stop, dccName } = this.#options;
    const startedAt = performance.now();
    const settle = (answer: ApprovalAnswer | "preapproved"): CommandError | undefined => {
      const waitedMs = Math.round(performance.now() - startedAt);
      if (answer === "preapproved" || answer.approved) {
        this.#states.set(rule.name, { status: "approved" });
        this.#records.push({
          rule: rule.name,
          command,
          summary,
          answer: answer === "preapproved" ? "preapproved" : "approved",
          ...(answer !== "preapproved" && answer.by !== undefined ? { by: answer.by } : {}),
          waitedMs,
        });
        return undefined;
      }
      const denied = { status: "denied" as const, reason: answer.reason, message: answer.message };
      this.#states.set(rule.name, denied);
      this.#records.push({
        rule: rule.name,
        command,
        summary,
        answer: answer.reason,
        ...(answer.by === undefined ? {} : { by: answer.by }),
        waitedMs,
      });
      return this.#denial(rule, command, summary, denied);
    };
    if (preapproved.includes(rule.name)) return settle("preapproved");
    if (approve === undefined) return settle({ approved: false, reason: "no-one-to-ask" });
    if (stop.aborted) return settle({ approved: false, reason: "cancelled" });

    const withdraw = new AbortController();
    const onStop = (): void => withdraw.abort(stop.reason);
    stop.addEventListener("abort", onStop, { once: true });
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timedOut = new Promise<ApprovalAnswer>((resolve) => {
      timer = setTimeout(() => {
        // Settled before the withdrawal, whose listeners settle `stopped`: the first settled
        // wins the race, and this is a timeout, not a cancel.
        resolve({ approved: false, reason: "timeout" });
        withdraw.abort(new Error("no answer in time"));
      }, timeoutMs);
    });
    const stopped = new Promise<ApprovalAnswer>((resolve) => {
      if (withdraw.signal.aborted) resolve({ approved: false, reason: "cancelled" });
      withdraw.signal.addEventListener(
        "abort",
        () => resolve({ approved: false, reason: "cancelled" }),
        { once: true },
      );
    });
    let asked: Promise<ApprovalAnswer>;
    try {
      asked = Promise.resolve(
        approve({
          dccName,
          rule: rule.name,
          ruleDescription: rule.description,
          command,
          summary,
          signal: withdraw.signal,
        }),
      ).then(answerOf, (): ApprovalAnswer => ({ approved: false, reason: "cancelled" }));
    } catch {
      asked = Promise.resolve({ approved: false, reason: "cancelled" });
    }
    try {
      // The bound and a stop win over a late answer.
      return settle(await Promise.race([timedOut, stopped, asked]));
    } finally {
      clearTimeout(timer);
      stop.removeEventListener("abort", onStop);
      if (!withdraw.signal.aborted) withdraw.abort(new Error("answered"));
    }
  }

  #denial(
    rule: ApprovalRule,
    command: string,
    summary: string,
    denied: Extract<RuleState, { status: "denied" }>,
  ): CommandError {
    return new CommandError({
      command,
      code: commandErrorCodes.approvalDenied,
      message: deniedText(rule.name, summary, denied.reason, denied.message),
      completion: "not_started",
      data: { rule: rule.name, reason: denied.reason },
    });
  }
}

const denialReasons: ReadonlySet<unknown> = new Set<ApprovalDenialReason>([
  "declined",
  "cancelled",
  "timeout",
  "unanswerable",
  "no-one-to-ask",
]);

/**
 * An approver's answer as the gate reads it: only `approved: true` is a yes, and anything that is
 * not an answer (a missing or unknown reason, no object at all) is a dismissal.
 */
function answerOf(answer: unknown): ApprovalAnswer {
  if (typeof answer !== "object" || answer === null)
    return { approved: false, reason: "cancelled" };
  const { approved, reason, by, message } = answer as Record<string, unknown>;
  const who = typeof by === "string" ? { by } : {};
  if (approved === true) return { approved: true, ...who };
  return {
    approved: false,
    reason: denialReasons.has(reason) ? (reason as ApprovalDenialReason) : "cancelled",
    ...who,
    ...(typeof message === "string" ? { message } : {}),
  };
}

function deniedText(
  rule: string,
  summary: string,
  reason: ApprovalDenialReason,
  message: string | undefined,
): string {
  const why: Record<ApprovalDenialReason, string> = {
    declined: "the person asked declined",
    cancelled: "the question was dismissed or withdrawn without an answer",
    timeout: "no answer came in time",
    unanswerable:
      "this server asks a person before such commands, and the client cannot ask anybody (it declared no elicitation support)",
    "no-one-to-ask":
      "nobody is there to ask (an async or farm job needs a pre-approval for the rule)",
  };
  const detail = message === undefined || message === "" ? why[reason] : message;
  return `Not approved: ${summary} (rule '${rule}': ${detail}). Nothing of it ran; the rest of this script gets the same answer for '${rule}'.`;
}

function oneLine(text: string): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > 300 ? `${line.slice(0, 299)}…` : line;
}
