// Streams one call's progress and console lines to its client: progress as notifications/progress
// (only with a progressToken; strictly increasing; at most one per interval, latest wins), console
// lines as notifications/message (only once the client has set a log level, and capped per call).

import type { ExecuteLogEntry, ExecuteProgress } from "@dcc/executor";
import type { LoggingLevel } from "@modelcontextprotocol/server";

/** Sends one notification tied to the current request. */
export type SendNotification = (notification: {
  method: "notifications/progress" | "notifications/message";
  params: Record<string, unknown>;
}) => Promise<void>;

/** Options for {@link CallNotifier}. */
export interface CallNotifierOptions {
  send: SendNotification;
  /** The call's progress token, or a function giving the one of the request serving it now. */
  progressToken: string | number | undefined | (() => string | number | undefined);
  /** The level the client set with logging/setLevel, or undefined when it never did. */
  logLevel: () => LoggingLevel | undefined;
  logger: string;
  intervalMs: number;
  maxLogNotifications: number;
}

const severity: Record<LoggingLevel, number> = {
  debug: 0,
  info: 1,
  notice: 2,
  warning: 3,
  error: 4,
  critical: 5,
  alert: 6,
  emergency: 7,
};

const consoleLevel: Record<ExecuteLogEntry["level"], LoggingLevel> = {
  log: "info",
  info: "info",
  warn: "warning",
  error: "error",
};

/** Per-call progress and log streaming; call {@link CallNotifier.flush} before answering. */
export class CallNotifier {
  readonly #options: CallNotifierOptions;
  #lastSent = Number.NEGATIVE_INFINITY;
  #lastSentAt = 0;
  #pending: ExecuteProgress | undefined;
  #timer: NodeJS.Timeout | undefined;
  #logsSent = 0;
  readonly #inFlight = new Set<Promise<void>>();

  constructor(options: CallNotifierOptions) {
    this.#options = options;
  }

  /** Receives a `progress()` report from the script. */
  readonly onProgress = (progress: ExecuteProgress): void => {
    if (this.#token() === undefined) return;
    const floor = Math.max(this.#lastSent, this.#pending?.progress ?? Number.NEGATIVE_INFINITY);
    if (!Number.isFinite(progress.progress) || progress.progress <= floor) return;
    this.#pending = progress;
    const wait = this.#lastSentAt + this.#options.intervalMs - Date.now();
    if (wait <= 0) this.#sendPending();
    else this.#timer ??= setTimeout(() => this.#sendPending(), wait);
  };

  /** Receives a console line from the script. */
  readonly onLog = (entry: ExecuteLogEntry): void => {
    const threshold = this.#options.logLevel();
    if (threshold === undefined || this.#logsSent >= this.#options.maxLogNotifications) return;
    const level = consoleLevel[entry.level] ?? "info";
    if (severity[level] < severity[threshold]) return;
    this.#logsSent += 1;
    this.#send({
      method: "notifications/message",
      params: { level, logger: this.#options.logger, data: entry.message },
    });
  };

  /**
   * Sends a held-back progress report at once, then waits (up to `waitMs`) until every
   * notification of the call has been handed to the transport, so none arrives after the result:
   * a send may take a few turns of the event loop before it writes.
   */
  async flush(waitMs = 2000): Promise<void> {
    if (this.#pending !== undefined) this.#sendPending();
    clearTimeout(this.#timer);
    this.#timer = undefined;
    if (this.#inFlight.size === 0) return;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.allSettled([...this.#inFlight]),
      new Promise((resolve) => {
        timer = setTimeout(resolve, waitMs);
      }),
    ]);
    clearTimeout(timer);
  }

  #send(notification: Parameters<SendNotification>[0]): void {
    const sent = this.#options
      .send(notification)
      .catch(() => {})
      .finally(() => this.#inFlight.delete(sent));
    this.#inFlight.add(sent);
  }

  #token(): string | number | undefined {
    const token = this.#options.progressToken;
    return typeof token === "function" ? token() : token;
  }

  #sendPending(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    const progress = this.#pending;
    const token = this.#token();
    this.#pending = undefined;
    if (progress === undefined || token === undefined || progress.progress <= this.#lastSent)
      return;
    this.#lastSent = progress.progress;
    this.#lastSentAt = Date.now();
    const params: Record<string, unknown> = { progressToken: token, progress: progress.progress };
    if (progress.total !== undefined) params["total"] = progress.total;
    if (progress.message !== undefined) params["message"] = progress.message;
    this.#send({ method: "notifications/progress", params });
  }
}
