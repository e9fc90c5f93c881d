import { LinkError } from "../link-error.ts";
import type { LinkWelcome } from "../link-welcome.ts";
import { backoffDelay, sleep } from "./backoff.ts";
import type { FramedConnection } from "./framed-connection.ts";

/** Options for {@link connectWithRetry}. */
export interface ConnectWithRetryOptions {
  /** One attempt: connect and handshake. */
  readonly open: () => Promise<{ connection: FramedConnection; welcome: LinkWelcome }>;
  readonly attempts: number;
  readonly initialDelayMs: number;
  readonly maxDelayMs: number;
  /** Wait before the first attempt too (after a lost connection: a dying host still accepts
   * for a moment, and its owner usually learns of the exit within that delay). */
  readonly waitFirst: boolean;
  /** Ends the waits early, when the link closes. */
  readonly signal: AbortSignal;
}

/** Codes no retry can fix: a wrong token or protocol, or a closed link. */
const final = new Set(["AUTH_FAILED", "PROTOCOL_MISMATCH", "LINK_CLOSED"]);

/**
 * Connects with bounded attempts and doubling delays.
 * @throws {LinkError} the last attempt's failure, or the first one that retrying cannot fix.
 */
export async function connectWithRetry(
  options: ConnectWithRetryOptions,
): Promise<{ connection: FramedConnection; welcome: LinkWelcome }> {
  let failure: unknown;
  for (let attempt = 0; attempt < options.attempts; attempt++) {
    if (attempt > 0 || options.waitFirst) {
      const step = options.waitFirst ? attempt : attempt - 1;
      await sleep(backoffDelay(step, options.initialDelayMs, options.maxDelayMs), options.signal);
    }
    if (options.signal.aborted) break;
    try {
      const opened = await options.open();
      if (!opened.connection.closed) return opened;
      failure = undefined; // lost right after the welcome: try again
    } catch (error) {
      failure = error;
      if (error instanceof LinkError && final.has(error.code)) throw error;
    }
  }
  throw (
    failure ??
    new LinkError({
      code: options.signal.aborted ? "LINK_CLOSED" : "HOST_GONE",
      message: options.signal.aborted ? "The link was closed" : "The host dropped every connection",
      completion: "not_started",
    })
  );
}
