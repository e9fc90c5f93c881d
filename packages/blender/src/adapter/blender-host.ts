import type { DccHostStatus } from "@dcc/executor";
import {
  DccProcess,
  type DccProcessOptions,
  forcefulCall,
  type LinkAccess,
  LinkError,
} from "@dcc/link";
import { BlenderCommandError } from "./blender-command-error.ts";
import type { BlenderConnection } from "./internal/blender-connection.ts";
import { commandFailure, isGone } from "./internal/command-failure.ts";

/** Options for {@link BlenderHost}. */
export interface BlenderHostOptions {
  /** The launch: command, arguments, environment, process group. */
  launch: Pick<DccProcessOptions, "command" | "args" | "env" | "processGroup">;
  /** Bound on launch-to-ready. */
  readyTimeoutMs: number;
  /** Deadline of one host call, unless the caller's signal ends it first. */
  callTimeoutMs: number;
  /** How long Blender may take to stop a call after its deadline or a cancel. */
  graceMs: number;
  /** Tells the server when Blender cannot be reached, and when it is back. */
  onStatus: (status: DccHostStatus) => void;
  /** Sees what Blender writes. */
  onOutput?: ((text: string, stream: "stdout" | "stderr") => void) | undefined;
}

/** How many unplanned restarts within {@link crashWindowMs} make the host give up for a while. */
const maxCrashesInWindow = 3;
const crashWindowMs = 60_000;
const retryDelaysMs = [5_000, 15_000, 60_000];

/**
 * One supervised Blender: launched on `start`, restarted when it dies or is ended for a call
 * that would not stop, and ended on `close`. Calls go through `forcefulCall`, so a call that
 * outlives its deadline (or is cancelled) and does not stop within the grace period ends the
 * process. Host failures become `BlenderCommandError`s a script can catch.
 */
export class BlenderHost implements BlenderConnection {
  readonly #options: BlenderHostOptions;
  readonly #process: DccProcess;
  readonly #crashes: number[] = [];
  #closed = false;
  #reviving: Promise<void> | undefined;
  #retryTimer: NodeJS.Timeout | undefined;
  #unavailable = false;
  #watched: unknown;
  #launches = 0;
  // Why Blender last restarted, until a caller has been told: a restart between two commands,
  // or after the caller had stopped waiting, would otherwise go unseen, and the next command
  // would act on an empty scene as if nothing had happened.
  #unreported: string | undefined;

  constructor(options: BlenderHostOptions) {
    this.#options = options;
    this.#process = new DccProcess({
      ...options.launch,
      readyTimeoutMs: options.readyTimeoutMs,
      terminateGraceMs: 5000,
      link: { callTimeoutMs: options.callTimeoutMs },
      onOutput: options.onOutput,
    });
  }

  /** The running Blender's process id (of `xvfb-run` under a virtual display). */
  get pid(): number | undefined {
    return this.#process.pid;
  }

  /** How many times Blender was started, the first launch included. */
  get launches(): number {
    return this.#launches;
  }

  /** The current Blender's private session folder (socket, `TMPDIR`); removed once it exits. */
  get sessionDir(): string | undefined {
    return this.#process.sessionDir;
  }

  /** The end of what the current (or last) Blender printed. */
  get output(): string {
    return this.#process.output;
  }

  /** Launches Blender; resolves once the link is up. @throws {DccLaunchError} */
  async start(signal?: AbortSignal): Promise<void> {
    const abort = (): void => {
      this.#process.close().catch(() => undefined);
    };
    signal?.addEventListener("abort", abort, { once: true });
    try {
      await this.#launch();
    } finally {
      signal?.removeEventListener("abort", abort);
    }
  }

  /**
   * Calls a handler of Blender's link server.
   * @throws {BlenderCommandError} with the host's code (`POLICY`, `NOT_FOUND`, …) or the link's
   *   (`HOST_GONE`, `LINK_TIMEOUT`, `CANCELLED`, `HOST_BUSY`).
   */
  async call(
    command: string,
    method: string,
    params: Readonly<Record<string, unknown>>,
    signal: AbortSignal,
  ): Promise<unknown> {
    if (this.#reviving !== undefined) await this.#reviving.catch(() => undefined);
    const missed = this.#unreported;
    if (missed !== undefined && this.#reviving === undefined && !this.#unavailable) {
      this.#unreported = undefined;
      throw new BlenderCommandError({
        command,
        code: "HOST_GONE",
        completion: "not_started",
        message: `${command} did not run: since the last command, ${missed}, and it was restarted with its factory start-up scene (unsaved changes are lost). Run it again to go on.`,
      });
    }
    try {
      return await forcefulCall(this.#process, {
        method,
        params,
        signal,
        timeoutMs: this.#options.callTimeoutMs,
        graceMs: this.#options.graceMs,
      });
    } catch (error) {
      throw this.#failure(command, error, signal);
    }
  }

  /**
   * What a sandbox thread needs to reach this Blender on its own connection. Undefined while
   * Blender is starting, restarting or unavailable, and while a restart waits to be reported: the
   * next command must go through {@link call}, which reports it.
   */
  laneAccess(): { access: LinkAccess; key: string } | undefined {
    const link = this.#process.link;
    const pid = this.#process.pid;
    if (this.#closed || this.#reviving !== undefined || this.#unavailable) return undefined;
    if (this.#unreported !== undefined || link === undefined || pid === undefined) return undefined;
    if (this.#process.state !== "running") return undefined;
    return { access: link.access(), key: `${pid}/${this.#launches}` };
  }

  /** Ends Blender and leaves nothing behind. Final. */
  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#retryTimer);
    await this.#reviving?.catch(() => undefined);
    await this.#process.close();
  }

  async #launch(): Promise<void> {
    this.#launches += 1;
    await this.#process.start();
    const link = this.#process.link;
    if (link !== undefined && link !== this.#watched) {
      this.#watched = link;
      link.onDisconnect((disconnect) => {
        if (disconnect.code === "HOST_GONE") this.#revive("Blender exited");
        else if (disconnect.code === "HOST_UNRESPONSIVE") this.#revive("Blender stopped answering");
      });
    }
  }

  /** Starts a new Blender after the last one died; idempotent while one is starting. */
  #revive(reason: string): void {
    if (this.#closed || this.#reviving !== undefined) return;
    this.#unreported = reason;
    const now = Date.now();
    this.#crashes.push(now);
    while ((this.#crashes[0] ?? now) < now - crashWindowMs) this.#crashes.shift();
    if (this.#crashes.length > maxCrashesInWindow) {
      this.#giveUp(`Blender exited ${this.#crashes.length} times within a minute`, 0);
      return;
    }
    this.#relaunch(0);
  }

  /** Ends what is left of the last Blender and starts a new one; on failure, retries later. */
  #relaunch(attempt: number): void {
    this.#reviving = (async () => {
      await this.#process.terminate();
      await this.#launch();
    })()
      .then(
        () => this.#ready(),
        (error: unknown) => this.#giveUp(`Blender did not restart: ${text(error)}`, attempt),
      )
      .finally(() => {
        this.#reviving = undefined;
      });
  }

  #giveUp(reason: string, attempt: number): void {
    if (this.#closed) return;
    const delay = retryDelaysMs[Math.min(attempt, retryDelaysMs.length - 1)] ?? 60_000;
    this.#unavailable = true;
    this.#options.onStatus({
      state: "unavailable",
      reason: `${reason}; trying again in ${Math.round(delay / 1000)} s`,
    });
    clearTimeout(this.#retryTimer);
    this.#retryTimer = setTimeout(() => {
      if (!this.#closed) this.#relaunch(attempt + 1);
    }, delay);
    this.#retryTimer.unref();
  }

  #ready(): void {
    if (this.#unavailable && !this.#closed) {
      this.#unavailable = false;
      this.#options.onStatus({ state: "ready" });
    }
  }

  #failure(command: string, error: unknown, signal: AbortSignal): unknown {
    if (isGone(error)) {
      this.#revive(
        error instanceof LinkError && error.hostTerminated
          ? `Blender was ended because ${command} did not stop in time`
          : `Blender exited while ${command} ran`,
      );
      // A caller still waiting reads this error; one that stopped waiting never will.
      if (!signal.aborted) this.#unreported = undefined;
    }
    const after = this.#closed
      ? "The server is shutting down."
      : "Blender is being restarted with its factory start-up scene (unsaved changes are lost); the next command waits for it.";
    return commandFailure(command, error, after);
  }
}

function text(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
