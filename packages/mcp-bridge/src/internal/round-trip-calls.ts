// Script calls on 2026-07-28 that wait for a person across requests. There a server cannot send a
// request to its client; it answers the call with `input_required` (the question) and the client
// retries the call with the answer. The script stays paused in between, owned by the server under
// an id the retry carries in its (signed) `requestState`, with the tool and the arguments it was
// started with: a retry must be the same call. The store is the server's `JobManager.roundTrips`:
// the manager is shared by every per-request server of one MCP server, so a retry finds its call.
import { createHash, randomBytes, randomUUID } from "node:crypto";
import type { ApprovalAnswer, ApprovalQuestion, Approver } from "@dcc/executor";
import {
  createRequestStateCodec,
  type RequestStateCodec,
  type ServerContext,
} from "@modelcontextprotocol/server";
import type { BridgeResult } from "../bridge-executor.ts";
import { approvalAnswer } from "./approval-form.ts";
import { tokenLabelOf } from "./call-identity.ts";

/** What a retry's `requestState` carries. */
interface RoundState {
  call: string;
  questions: string[];
  /** The tool and a digest of the arguments the call was started with. */
  tool: string;
  args: string;
}

/** A question put to the client, by the key of its embedded request. */
export interface RoundQuestion {
  readonly key: string;
  readonly question: ApprovalQuestion;
}

/** One serving of a call: its result, or the questions its client must answer first. */
export type RoundOutcome =
  | { readonly kind: "result"; readonly result: BridgeResult }
  | { readonly kind: "questions"; readonly questions: readonly RoundQuestion[] }
  /** Another request serves the call right now (a duplicate retry). */
  | { readonly kind: "busy" };

/** How long a finished call's result stays for a retry that comes late or again. */
const resultRetentionMs = 60_000;

interface OpenQuestion extends RoundQuestion {
  asked: boolean;
  answer(answer: ApprovalAnswer): void;
}

/** What a call was started as: a retry must name the same tool and arguments. */
export interface RoundTripOrigin {
  readonly tool: string;
  readonly args: unknown;
  /** When the call started (`performance.now()`), for its whole duration in the audit. */
  readonly startedAt: number;
}

/** A script call whose questions are answered by retried requests. */
export class RoundTripCall {
  readonly id: string = randomUUID();
  readonly origin: RoundTripOrigin;
  /** The script's server-owned job id, once it runs. */
  jobId: string | undefined;
  readonly #calls: RoundTripCalls;
  readonly #abort = new AbortController();
  #result: Promise<RoundOutcome> | undefined;
  #finished = false;
  readonly #open = new Map<string, OpenQuestion>();
  #wake: (() => void) | undefined;
  #attached: ServerContext | undefined;
  #questions = 0;
  #expiry: ReturnType<typeof setTimeout> | undefined;
  #reportedAlone = false;

  constructor(calls: RoundTripCalls, origin: RoundTripOrigin) {
    this.#calls = calls;
    this.origin = origin;
  }

  /** True once the result was reported while no request served the call. */
  get reportedAlone(): boolean {
    return this.#reportedAlone;
  }

  /** Cancels the script: aborted by the request serving it, or when its client never came back. */
  get signal(): AbortSignal {
    return this.#abort.signal;
  }

  /** The request serving the call now (for its notifications); undefined between requests. */
  get attached(): ServerContext | undefined {
    return this.#attached;
  }

  /** Asks through the next `input_required` result. */
  readonly approver: Approver = (question) =>
    new Promise<ApprovalAnswer>((resolve) => {
      const key = `approve-${++this.#questions}`;
      const settle = (answer: ApprovalAnswer): void => {
        if (!this.#open.delete(key)) return;
        question.signal.removeEventListener("abort", withdrawn);
        resolve(answer);
      };
      const withdrawn = (): void => {
        settle({ approved: false, reason: "cancelled" });
        // The question was out and the client has not come back with an answer: it has gone,
        // and nobody would receive the result, so the script stops and its changes are rolled
        // back. (The script would otherwise go on at once with the denial.)
        if (this.#attached === undefined && !this.#finished) {
          this.#abort.abort(
            new Error(
              "The client did not answer the approval question in time (it did not retry the call)",
            ),
          );
        }
      };
      this.#open.set(key, { key, question, asked: false, answer: settle });
      if (question.signal.aborted) withdrawn();
      else question.signal.addEventListener("abort", withdrawn, { once: true });
      this.#wake?.();
    });

  /**
   * Starts the script (once); it must use {@link RoundTripCall.signal} and
   * {@link RoundTripCall.approver}. A result that comes while no request serves the call (its
   * client left during a question) goes to `alone`, so the audit still hears of it, and waits a
   * while for a late retry.
   */
  start(run: () => Promise<BridgeResult>, alone: (result: BridgeResult) => void): void {
    this.#result = run().then((result) => {
      this.#finished = true;
      if (this.#attached === undefined) {
        this.#reportedAlone = true;
        this.#retain();
        try {
          alone(result);
        } catch {
          // An observer's failure must not lose the result.
        }
      }
      return { kind: "result", result } as const;
    });
  }

  /**
   * Serves one request: gives the questions it answers their answers from the request's
   * `inputResponses` (a missing one counts as dismissed), then waits for the result or the next
   * questions. The request's signal cancels the script while it waits. One request at a time: a
   * second one meanwhile is answered `busy`.
   */
  async serve(
    extra: ServerContext,
    answered: readonly string[],
    by: string | undefined,
  ): Promise<RoundOutcome> {
    if (this.#attached !== undefined) return { kind: "busy" };
    clearTimeout(this.#expiry);
    this.#attached = extra;
    const signal = extra.mcpReq.signal;
    const cancel = (): void => this.#abort.abort(new Error("Request cancelled by client"));
    if (signal.aborted) cancel();
    else signal.addEventListener("abort", cancel, { once: true });
    try {
      for (const key of answered) {
        this.#open.get(key)?.answer(approvalAnswer(extra.mcpReq.inputResponses?.[key], by));
      }
      const finished = this.#result as Promise<RoundOutcome>;
      for (;;) {
        const fresh = [...this.#open.values()].filter((open) => !open.asked);
        if (fresh.length > 0) {
          for (const open of fresh) open.asked = true;
          return {
            kind: "questions",
            questions: fresh.map(({ key, question }) => ({ key, question })),
          };
        }
        const woken = new Promise<undefined>((wake) => {
          this.#wake = () => wake(undefined);
        });
        const outcome = await Promise.race([finished, woken]);
        this.#wake = undefined;
        if (outcome !== undefined) return outcome;
      }
    } finally {
      signal.removeEventListener("abort", cancel);
      this.#attached = undefined;
      // A delivered result stays a while too: a retry whose answer was lost gets it again.
      if (this.#finished) this.#retain();
    }
  }

  /** Forgets the call after the retention time. */
  #retain(): void {
    clearTimeout(this.#expiry);
    this.#expiry = setTimeout(() => this.#calls.forget(this.id), resultRetentionMs);
    this.#expiry.unref?.();
  }
}

/** Why a retry's `requestState` does not resume a call. */
export type ResumeRefusal = "unknown" | "other-caller" | "other-call" | "expired" | "gone";

/** The round-trip calls of one server, and the codec of their `requestState`. */
export class RoundTripCalls {
  readonly #calls = new Map<string, RoundTripCall>();
  readonly #codec: RequestStateCodec<RoundState>;

  constructor() {
    this.#codec = createRequestStateCodec<RoundState>({
      key: randomBytes(32),
      // Long enough for any question's bound; the call itself is dropped sooner when it ends.
      ttlSeconds: 24 * 60 * 60,
      // Only the caller who was asked (the same token) can answer.
      bind: (extra) => `${extra.mcpReq.method}\0${tokenLabelOf(extra) ?? ""}`,
    });
  }

  /** A new call, kept until its result has been served (and a while after). */
  create(origin: RoundTripOrigin): RoundTripCall {
    const call = new RoundTripCall(this, origin);
    this.#calls.set(call.id, call);
    return call;
  }

  /** The state an `input_required` result with these questions carries. */
  mint(call: RoundTripCall, questions: readonly string[], extra: ServerContext): Promise<string> {
    return this.#codec.mint(
      {
        call: call.id,
        questions: [...questions],
        tool: call.origin.tool,
        args: argsDigest(call.origin.args),
      },
      extra,
    );
  }

  /**
   * The call and questions a retry's `requestState` names, if it is the same call from the same
   * caller; otherwise why not.
   */
  async resume(
    state: string,
    extra: ServerContext,
    retried: { tool: string; args: unknown },
  ): Promise<{ call: RoundTripCall; questions: string[] } | { refused: ResumeRefusal }> {
    let decoded: RoundState;
    try {
      decoded = await this.#codec.verify(state, extra);
    } catch (error) {
      const reason = error instanceof Error ? error.message : "";
      return {
        refused: reason === "bind" ? "other-caller" : reason === "expired" ? "expired" : "unknown",
      };
    }
    if (decoded.tool !== retried.tool || decoded.args !== argsDigest(retried.args)) {
      return { refused: "other-call" };
    }
    const call = this.#calls.get(decoded.call);
    if (call === undefined || !Array.isArray(decoded.questions)) return { refused: "gone" };
    return { call, questions: decoded.questions.filter((key) => typeof key === "string") };
  }

  forget(id: string): void {
    this.#calls.delete(id);
  }

  /** Calls kept now (running, paused, or finished and retained). */
  get size(): number {
    return this.#calls.size;
  }
}

/** A digest of a call's arguments that does not depend on the order of their keys. */
function argsDigest(args: unknown): string {
  return createHash("sha256")
    .update(JSON.stringify(sorted(args)))
    .digest("base64url");
}

function sorted(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sorted);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, sorted((value as Record<string, unknown>)[key])]),
  );
}
