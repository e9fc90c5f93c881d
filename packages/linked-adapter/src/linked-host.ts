import {
  CommandError,
  type CommandErrorOptions,
  type DccHostStatus,
  type DccTransactionReport,
} from "@dcc/executor";
import {
  DccProcess,
  type DccProcessOptions,
  forcefulCall,
  LinkError,
  type LinkHeartbeatOptions,
} from "@dcc/link";
import { Listeners } from "./internal/listeners.ts";
import { RecoveryKeeper } from "./internal/recovery-keeper.ts";
import { type CreateCommandError, isHostGone, linkCommandError } from "./link-command-error.ts";
import type { LinkedConnection, LinkedHostEvent, LinkedLaneAccess } from "./linked-connection.ts";
import type { LinkedRecoveryCopy, LinkedRecoveryMethods } from "./linked-recovery.ts";

/**
 * How to launch the host: every {@link DccProcessOptions} field but those {@link LinkedHost}
 * sets itself (bounds, link settings, output). Fields `@dcc/link` adds later pass through.
 */
export type LinkedLaunch = Omit<
  DccProcessOptions,
  "readyTimeoutMs" | "terminateGraceMs" | "link" | "onOutput"
>;

/**
 * When restarts stop for a while: more than `maxCrashes` unplanned restarts within `windowMs`,
 * or a restart that fails, makes the host unavailable and tries again after the next of
 * `retryDelaysMs` (the last one repeats).
 */
export interface LinkedCrashLoop {
  /** Default 3. */
  readonly maxCrashes?: number | undefined;
  /** Default 60000 ms. */
  readonly windowMs?: number | undefined;
  /** Default `[5000, 15000, 60000]`. */
  readonly retryDelaysMs?: readonly number[] | undefined;
}

/** Options for {@link LinkedHost}. */
export interface LinkedHostOptions {
  /** The DCC's name in messages, e.g. `"Blender"`. */
  displayName: string;
  /** The launch: command, arguments, environment, process group, sandbox… */
  launch: LinkedLaunch;
  /** Bound on launch-to-ready. Default 60000 ms. */
  readyTimeoutMs?: number | undefined;
  /**
   * Deadline of one call (a script's command), unless the caller's signal (the script's own
   * timeout or cancel) ends it first. Default 300000 ms.
   */
  callTimeoutMs?: number | undefined;
  /**
   * How long the host may take to stop a call after its deadline or a cancel before it is ended
   * (SIGTERM). Default 2000 ms.
   */
  graceMs?: number | undefined;
  /** How long the host may take to exit after SIGTERM before SIGKILL. Default 5000 ms. */
  terminateGraceMs?: number | undefined;
  /** The link's heartbeat (see `LinkClientOptions.heartbeat`). */
  heartbeat?: LinkHeartbeatOptions | undefined;
  /**
   * What a restart leaves, said in each restart notice after "restarted": default
   * `"with none of its earlier state (unsaved changes are lost)"`.
   */
  restartNote?: string | undefined;
  /** The crash-loop back-off. */
  crashLoop?: LinkedCrashLoop | undefined;
  /**
   * Keep a recovery copy of the scene and open it after each restart (see
   * {@link LinkedRecoveryMethods}): the adapter reports each script's transaction
   * ({@link LinkedHost.transactionBegan}, {@link LinkedHost.transactionEnded}), committed changes
   * are saved (bounded), and the restart notice says what was restored and from when, or that
   * there was no copy, instead of `restartNote`.
   */
  recovery?: LinkedRecoveryMethods | undefined;
  /** Tells the server when the host cannot be reached, and when it is back (`reportHost`). */
  onStatus: (status: DccHostStatus) => void;
  /** Sees what the host writes to stdout and stderr. */
  onOutput?: ((text: string, stream: "stdout" | "stderr") => void) | undefined;
  /** Makes the errors calls (a script's commands) throw; `CommandError` by default. */
  createError?: CreateCommandError | undefined;
}

/**
 * One supervised DCC process behind `@dcc/link`: launched on `start`, restarted when it dies or
 * is ended for a call that would not stop, and ended on `close`. Calls go through
 * `forcefulCall`: a call past its deadline (or cancelled) that the host does not drop within
 * `graceMs` ends the process, so a stuck call settles within `callTimeoutMs + graceMs +
 * terminateGraceMs` ({@link LinkedHost.stuckCallBoundMs}) with `completion: "unknown"`.
 *
 * A restart nobody was told about (the host died between two commands, or after the caller had
 * stopped waiting) fails the next command once with `HOST_GONE`, `completion: "not_started"`,
 * saying why: otherwise it would act on a fresh host as if nothing had happened. A host that
 * dies is reported `restarting` (`onStatus`; calls wait for the new one) until it is back, then
 * `ready`. Too many crashes in a row make it `unavailable` and retry after a back-off.
 * With `recovery`, committed changes are kept in a recovery copy that a restarted host opens
 * before any waiting command runs, and the notices say what came back and from when.
 */
export class LinkedHost implements LinkedConnection {
  readonly #options: LinkedHostOptions;
  readonly #process: DccProcess;
  readonly #crashes: number[] = [];
  readonly #events = new Listeners<LinkedHostEvent>();
  readonly #callTimeoutMs: number;
  readonly #graceMs: number;
  readonly #terminateGraceMs: number;
  #closed = false;
  #reviving: Promise<void> | undefined;
  #retryTimer: NodeJS.Timeout | undefined;
  #unavailable = false;
  // Whether `restarting` was reported and `ready` is still owed.
  #restarting = false;
  #watched: unknown;
  #launches = 0;
  // Set when the current launch's link goes: the lanes to that launch stop.
  #laneClosed = new Int32Array(new SharedArrayBuffer(4));
  // Why the host last restarted, until a caller has been told.
  #unreported: string | undefined;
  readonly #recovery: RecoveryKeeper | undefined;
  // What the last restart left (the recovery keeper's words), once it is known.
  #restored: string | undefined;

  constructor(options: LinkedHostOptions) {
    this.#options = options;
    this.#callTimeoutMs = options.callTimeoutMs ?? 300_000;
    this.#graceMs = options.graceMs ?? 2000;
    this.#terminateGraceMs = options.terminateGraceMs ?? 5000;
    this.#process = new DccProcess({
      ...options.launch,
      readyTimeoutMs: options.readyTimeoutMs ?? 60_000,
      terminateGraceMs: this.#terminateGraceMs,
      link: {
        callTimeoutMs: this.#callTimeoutMs,
        ...(options.heartbeat === undefined ? {} : { heartbeat: options.heartbeat }),
      },
      onOutput: options.onOutput,
    });
    const methods = options.recovery;
    this.#recovery =
      methods === undefined
        ? undefined
        : new RecoveryKeeper({
            methods,
            displayName: options.displayName,
            call: (method, params, timeoutMs) => this.#process.call(method, params, { timeoutMs }),
            ready: () =>
              !this.#closed &&
              this.#reviving === undefined &&
              !this.#unavailable &&
              this.#process.state === "running",
            launches: () => this.#launches,
          });
  }

  /** The last recovery copy saved (with `recovery`), if any. */
  get recoveryCopy(): LinkedRecoveryCopy | undefined {
    return this.#recovery?.copy;
  }

  /**
   * Tells the host a script's transaction began (with `recovery`: no copy is saved while it is
   * open). Returns the token to pass to {@link LinkedHost.transactionEnded}.
   */
  transactionBegan(): object {
    return this.#recovery?.began() ?? {};
  }

  /**
   * Tells the host how a script's transaction ended: with `recovery`, a committed change is
   * saved to the recovery copy (skipped when nothing changed, at most once per interval).
   */
  transactionEnded(token: object, report: DccTransactionReport): void {
    this.#recovery?.ended(token, report);
  }

  /**
   * The id of the process this host launched and ends: the DCC's own, a wrapper's (`xvfb-run`),
   * or bubblewrap's when {@link LinkedHost.sandboxed} (the DCC then runs in a PID namespace of
   * its own, where its `os.getpid()` is another number).
   */
  get pid(): number | undefined {
    return this.#process.pid;
  }

  /** How many times the host was started, the first launch included. */
  get launches(): number {
    return this.#launches;
  }

  /** Whether the current (or last) host runs in the OS sandbox; undefined before a start. */
  get sandboxed(): boolean | undefined {
    return this.#process.sandboxed;
  }

  /** The current host's private session folder (socket, `TMPDIR`); removed once it exits. */
  get sessionDir(): string | undefined {
    return this.#process.sessionDir;
  }

  /** The end of what the current (or last) host printed. */
  get output(): string {
    return this.#process.output;
  }

  /** The longest a call can take once stuck: `callTimeoutMs + graceMs + terminateGraceMs`. */
  get stuckCallBoundMs(): number {
    return this.#callTimeoutMs + this.#graceMs + this.#terminateGraceMs;
  }

  /** Launches the host; resolves once the link is up. @throws {DccLaunchError} */
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
   * Calls `method` of the host. Waits for a restart under way first.
   * @throws {CommandError} with the host's code or the link's (`HOST_GONE`, `LINK_TIMEOUT`,
   *   `CANCELLED`, `HOST_BUSY`), or `HOST_GONE` with `completion: "not_started"` once after a
   *   restart nobody was told about.
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
      throw this.#create({
        command,
        code: "HOST_GONE",
        completion: "not_started",
        message: `${command} did not run: since the last command, ${missed}, and it was restarted ${this.#restartNote()}. Run it again to go on.`,
      });
    }
    const launch = this.#launches;
    try {
      return await forcefulCall(this.#process, {
        method,
        params,
        signal,
        timeoutMs: this.#callTimeoutMs,
        graceMs: this.#graceMs,
      });
    } catch (error) {
      const gone = this.#noteFailure(command, error, signal, launch);
      // With a recovery copy, a caller still waiting is told what the restart brought back:
      // wait for it (bounded by the launch's own timeout, and by the caller's signal).
      if (gone && this.#recovery !== undefined && !signal.aborted) {
        await settledOrAborted(this.#reviving, signal);
      }
      throw this.#commandError(command, error);
    }
  }

  /**
   * What a sandbox thread needs to reach this host on its own connection. Undefined while it is
   * starting, restarting or unavailable, and while a restart waits to be reported.
   */
  laneAccess(): LinkedLaneAccess | undefined {
    const link = this.#process.link;
    const pid = this.#process.pid;
    if (this.#closed || this.#reviving !== undefined || this.#unavailable) return undefined;
    if (this.#unreported !== undefined || link === undefined || pid === undefined) return undefined;
    if (this.#process.state !== "running") return undefined;
    return { access: link.access(), key: `${pid}/${this.#launches}`, closed: this.#laneClosed };
  }

  /** Listens to exits, restarts and back-offs; returns the function that stops listening. */
  onEvent(listener: (event: LinkedHostEvent) => void): () => void {
    return this.#events.add(listener);
  }

  /**
   * Ends the host and leaves nothing behind, also during a stuck call (which fails with
   * `HOST_GONE`, "The server is shutting down."). Final.
   */
  async close(): Promise<void> {
    this.#closed = true;
    Atomics.store(this.#laneClosed, 0, 1);
    clearTimeout(this.#retryTimer);
    this.#recovery?.close();
    await this.#reviving?.catch(() => undefined);
    await this.#process.close();
  }

  #restartNote(): string {
    return (
      this.#restored ??
      this.#options.restartNote ??
      "with none of its earlier state (unsaved changes are lost)"
    );
  }

  #create(init: CommandErrorOptions): CommandError {
    return (this.#options.createError ?? ((options) => new CommandError(options)))(init);
  }

  async #launch(): Promise<void> {
    this.#launches += 1;
    await this.#process.start();
    const link = this.#process.link;
    const name = this.#options.displayName;
    if (link !== undefined && link !== this.#watched) {
      this.#watched = link;
      const launch = this.#launches;
      const laneClosed = new Int32Array(new SharedArrayBuffer(4));
      this.#laneClosed = laneClosed;
      link.onDisconnect((disconnect) => {
        // Before the calls that failed with it reach a script: a read the script makes next
        // must not reach a host that outlived its process (under bubblewrap, killed first).
        Atomics.store(laneClosed, 0, 1);
        // A late word from a host already replaced is not about the current one.
        if (launch !== this.#launches) return;
        if (disconnect.code === "HOST_GONE") this.#revive(`${name} exited`);
        else if (disconnect.code === "HOST_UNRESPONSIVE") this.#revive(`${name} stopped answering`);
      });
    }
  }

  /** Starts a new host after the last one died; idempotent while one is starting. */
  #revive(reason: string): void {
    if (this.#closed || this.#reviving !== undefined) return;
    this.#unreported = reason;
    this.#restored = undefined;
    this.#events.emit({ type: "exit", reason });
    const now = Date.now();
    const loop = this.#options.crashLoop;
    this.#crashes.push(now);
    while ((this.#crashes[0] ?? now) < now - (loop?.windowMs ?? 60_000)) this.#crashes.shift();
    if (this.#crashes.length > (loop?.maxCrashes ?? 3)) {
      const seconds = Math.round((loop?.windowMs ?? 60_000) / 1000);
      this.#giveUp(
        `${this.#options.displayName} exited ${this.#crashes.length} times within ${seconds} s`,
        0,
      );
      return;
    }
    this.#restarting = true;
    this.#options.onStatus({ state: "restarting", reason: `${reason}; restarting` });
    this.#relaunch(0);
  }

  /** Ends what is left of the last host and starts a new one; on failure, retries later. */
  #relaunch(attempt: number): void {
    this.#reviving = (async () => {
      await this.#process.terminate();
      await this.#launch();
      // Before any waiting command runs: the scene they find is the restored one.
      if (this.#recovery !== undefined) this.#restored = await this.#recovery.restore();
    })()
      .then(
        () => this.#ready(),
        (error: unknown) =>
          this.#giveUp(`${this.#options.displayName} did not restart: ${text(error)}`, attempt),
      )
      .finally(() => {
        this.#reviving = undefined;
      });
  }

  #giveUp(reason: string, attempt: number): void {
    if (this.#closed) return;
    const delays = this.#options.crashLoop?.retryDelaysMs ?? [5_000, 15_000, 60_000];
    const delay = delays[Math.min(attempt, delays.length - 1)] ?? 60_000;
    this.#unavailable = true;
    const full = `${reason}; trying again in ${Math.round(delay / 1000)} s`;
    this.#options.onStatus({ state: "unavailable", reason: full });
    this.#events.emit({ type: "unavailable", reason: full, retryInMs: delay });
    clearTimeout(this.#retryTimer);
    this.#retryTimer = setTimeout(() => {
      if (!this.#closed) this.#relaunch(attempt + 1);
    }, delay);
    this.#retryTimer.unref();
  }

  #ready(): void {
    if (this.#closed) return;
    this.#events.emit({ type: "restart", launches: this.#launches });
    if (this.#unavailable || this.#restarting) {
      this.#unavailable = false;
      this.#restarting = false;
      this.#options.onStatus({ state: "ready" });
    }
  }

  /** Restarts a host that is gone (once) and notes what the next command must be told. */
  #noteFailure(command: string, error: unknown, signal: AbortSignal, launch: number): boolean {
    if (!isHostGone(error)) return false;
    const name = this.#options.displayName;
    const reason =
      error instanceof LinkError && error.hostTerminated
        ? `${name} was ended because ${command} did not stop in time (long work belongs in an async job: async: true with a larger timeout_secs)`
        : `${name} exited while ${command} ran`;
    if (launch === this.#launches && this.#reviving === undefined) this.#revive(reason);
    // Else the link's disconnect has already started (or finished) the restart, with a
    // vaguer reason: the notice still waiting for the next command gets this one.
    else if (this.#unreported !== undefined) this.#unreported = reason;
    // A caller still waiting reads this error; one that stopped waiting never will.
    if (!signal.aborted) this.#unreported = undefined;
    return true;
  }

  #commandError(command: string, error: unknown): unknown {
    const name = this.#options.displayName;
    const afterGone = this.#closed
      ? "The server is shutting down."
      : this.#reviving === undefined && this.#restored !== undefined
        ? `${name} was restarted ${this.#restored}.`
        : this.#recovery !== undefined
          ? `${name} is being restarted, from its recovery copy when it has one; the next command waits for it.`
          : `${name} is being restarted ${this.#restartNote()}; the next command waits for it.`;
    // Ended for a command that would not stop: say where such work belongs.
    const advice =
      error instanceof LinkError && error.hostTerminated
        ? " Long work belongs in an async job: async: true with a larger timeout_secs."
        : "";
    return linkCommandError(error, {
      command,
      displayName: name,
      afterGone: `${afterGone}${advice}`,
      createError: this.#options.createError,
    });
  }
}

/** Resolves once `promise` settles (or there is none), or `signal` aborts. */
async function settledOrAborted(
  promise: Promise<unknown> | undefined,
  signal: AbortSignal,
): Promise<void> {
  if (promise === undefined || signal.aborted) return;
  let onAbort: (() => void) | undefined;
  await Promise.race([
    promise.catch(() => undefined),
    new Promise<void>((resolve) => {
      onAbort = resolve;
      signal.addEventListener("abort", onAbort, { once: true });
    }),
  ]);
  if (onAbort !== undefined) signal.removeEventListener("abort", onAbort);
}

function text(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
