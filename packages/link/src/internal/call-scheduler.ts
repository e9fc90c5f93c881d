import type { CallCompletion } from "../call-completion.ts";
import type { AbandonedCall } from "../link-client-options.ts";
import { LinkError } from "../link-error.ts";
import { RemoteCallError } from "../remote-call-error.ts";
import type { CloseReason } from "./framed-connection.ts";
import type { ExpiryCode, PendingCall } from "./pending-call.ts";
import type { ServerFrame } from "./protocol.ts";

type Abandoned = AbandonedCall & { settle(completion: CallCompletion): void };
type Answer = Extract<ServerFrame, { type: "result" | "error" }>;

/** A {@link LinkError} for `call`, its message prefixed with the method. */
export function callError(
  call: PendingCall,
  reason: CloseReason,
  completion: CallCompletion,
): LinkError {
  const message = reason.message.startsWith(call.method)
    ? reason.message
    : `${call.method}: ${reason.message}`;
  return new LinkError({
    code: reason.code,
    message,
    completion,
    method: call.method,
    callId: call.id,
    cause: reason.cause,
  });
}

/**
 * Who holds the host: at most one call in flight, or one abandoned call (its caller stopped
 * waiting, the host has not answered), and a bounded queue behind it. Settles every call once,
 * with the right completion; the link decides when to send.
 */
export class CallScheduler {
  readonly #maxQueue: number;
  readonly #queue: PendingCall[] = [];
  #inFlight: PendingCall | undefined;
  #abandoned: Abandoned | undefined;

  constructor(maxQueue: number) {
    this.#maxQueue = maxQueue;
  }

  /** The abandoned call that holds the host, if any. */
  get abandonedCall(): AbandonedCall | undefined {
    const abandoned = this.#abandoned;
    return abandoned && { id: abandoned.id, method: abandoned.method, settled: abandoned.settled };
  }

  /** True when a call could be sent now. */
  get hostFree(): boolean {
    return this.#inFlight === undefined && this.#abandoned === undefined;
  }

  /** True when calls wait. */
  get hasQueued(): boolean {
    return this.#queue.length > 0;
  }

  /** Why a new call must fail fast with `HOST_BUSY`, if it must. */
  refusal(method: string): CloseReason | undefined {
    const abandoned = this.#abandoned;
    if (abandoned !== undefined) {
      const message = `${method} was not started: the host is still running ${abandoned.method} (call ${abandoned.id}), whose caller stopped waiting`;
      return { code: "HOST_BUSY", message };
    }
    if (this.#queue.length >= this.#maxQueue) {
      return {
        code: "HOST_BUSY",
        message: `${method} was not started: ${this.#maxQueue} calls already wait`,
      };
    }
    return undefined;
  }

  enqueue(call: PendingCall): void {
    this.#queue.push(call);
  }

  /** Removes and returns the next call to send, when the host is free. */
  takeNext(): PendingCall | undefined {
    return this.hostFree ? this.#queue.shift() : undefined;
  }

  markSent(call: PendingCall): void {
    call.state = "sent";
    this.#inFlight = call;
  }

  /**
   * A call's deadline passed or its signal aborted. A queued call fails `not_started`; the call
   * in flight fails `unknown` and is abandoned, and the calls behind it fail with `HOST_BUSY`.
   * @returns true when the host must be asked to cancel `call`.
   */
  expire(call: PendingCall, code: ExpiryCode): boolean {
    const what = code === "LINK_TIMEOUT" ? `timed out after ${call.timeoutMs} ms` : "was cancelled";
    if (call.state === "queued") {
      const index = this.#queue.indexOf(call);
      if (index !== -1) this.#queue.splice(index, 1);
      call.reject(
        callError(
          call,
          { code, message: `${call.method} ${what} before it started` },
          "not_started",
        ),
      );
      return false;
    }
    if (this.#inFlight !== call) return false;
    this.#inFlight = undefined;
    let settle!: (completion: CallCompletion) => void;
    const settled = new Promise<CallCompletion>((resolve) => {
      settle = resolve;
    });
    this.#abandoned = { id: call.id, method: call.method, settled, settle };
    const message = `${call.method} ${what}; the host was asked to cancel it and may still be running it`;
    call.reject(callError(call, { code, message }, "unknown"));
    for (const waiting of this.#queue.splice(0)) {
      const busy = `${waiting.method} was not started: the host is still running ${call.method}, whose caller stopped waiting`;
      waiting.reject(callError(waiting, { code: "HOST_BUSY", message: busy }, "not_started"));
    }
    return true;
  }

  /** Routes a reply. @returns false when it answers nothing we wait for (it is dropped). */
  answer(frame: Answer): boolean {
    const inFlight = this.#inFlight;
    if (inFlight !== undefined && frame.id === inFlight.id) {
      this.#inFlight = undefined;
      if (frame.type === "result") inFlight.resolve(frame.result);
      else {
        inFlight.reject(
          new RemoteCallError({
            method: inFlight.method,
            callId: inFlight.id,
            remoteCode: frame.error.code,
            remoteMessage: frame.error.message,
            remoteType: frame.error.type,
            remoteData: frame.error.data,
            completion: frame.started ? "complete" : "not_started",
          }),
        );
      }
      return true;
    }
    const abandoned = this.#abandoned;
    if (abandoned !== undefined && frame.id === abandoned.id) {
      this.#abandoned = undefined;
      abandoned.settle(frame.type === "error" && !frame.started ? "not_started" : "complete");
      return true;
    }
    return false;
  }

  /** The connection ended: the call in flight fails (`not_started` only when the host said it
   * refused the frame), an abandoned call settles `unknown`; queued calls stay. */
  connectionLost(reason: CloseReason): void {
    const inFlight = this.#inFlight;
    this.#inFlight = undefined;
    if (inFlight !== undefined) {
      inFlight.reject(
        callError(inFlight, reason, reason.refusedFrame === true ? "not_started" : "unknown"),
      );
    }
    this.#abandoned?.settle("unknown");
    this.#abandoned = undefined;
  }

  /** Fails every queued call as `not_started`. */
  failQueued(reason: CloseReason): void {
    for (const call of this.#queue.splice(0)) call.reject(callError(call, reason, "not_started"));
  }
}
