import type { TerminateProcessResult } from "@dcc/cancel";
import type { DccProcessOptions, DccProcessState } from "./dcc-process-options.ts";
import { endHost } from "./internal/end-host.ts";
import { type HostInstance, launchHost } from "./internal/launch-host.ts";
import type { LinkClient } from "./link-client.ts";
import type { LinkCallOptions } from "./link-client-options.ts";
import { LinkError } from "./link-error.ts";

/**
 * A DCC process launched for the link, and the link to it. Each launch gets a private 0700
 * session folder (the Unix socket, the token file when one is used, and the host's `TMPDIR`), a
 * fresh random token (in the environment or a 0600 file, never on the command line), and a
 * watchdog pipe on fd 3 whose end-of-file tells the host that this process died, even by
 * SIGKILL. When the host exits, for whatever reason, its link is closed (`HOST_GONE`) and its
 * folder removed; {@link DccProcess.restart} starts a new one on demand. On Linux the host runs
 * in an OS sandbox by default (see {@link DccProcessOptions.sandbox}), and each start first
 * removes the session folders of launches killed with their hosts.
 */
export class DccProcess {
  readonly #options: DccProcessOptions;
  #state: DccProcessState = "stopped";
  #instance: HostInstance | undefined;
  #starting: Promise<void> | undefined;
  #stopping: Promise<TerminateProcessResult | undefined> | undefined;

  constructor(options: DccProcessOptions) {
    this.#options = options;
  }

  /** Creates a process and starts it. @throws {DccLaunchError} when it does not come up. */
  static async start(options: DccProcessOptions): Promise<DccProcess> {
    const host = new DccProcess(options);
    await host.start();
    return host;
  }

  /** Where the process is in its life. */
  get state(): DccProcessState {
    return this.#state;
  }

  /** The current (or last) host's process id. */
  get pid(): number | undefined {
    return this.#instance?.child.pid;
  }

  /** The link to the current host: closed once it exits, a new one after each restart. */
  get link(): LinkClient | undefined {
    return this.#instance?.link;
  }

  /** The current host's private session folder (removed once the host has exited). */
  get sessionDir(): string | undefined {
    return this.#instance?.session.dir;
  }

  /** Whether the current (or last) host runs in the OS sandbox; undefined before a start. */
  get sandboxed(): boolean | undefined {
    return this.#instance?.sandboxed;
  }

  /** The end of what the current (or last) host wrote to stdout and stderr. */
  get output(): string {
    return this.#instance?.output.tail ?? "";
  }

  /**
   * Starts the host when it is stopped; resolves once the link is connected.
   * @throws {DccLaunchError} `LAUNCH_FAILED` or `READY_TIMEOUT` (nothing is left running).
   */
  start(): Promise<void> {
    if (this.#state === "closed") return Promise.reject(new Error("This DccProcess is closed"));
    if (this.#state === "running") return Promise.resolve();
    this.#starting ??= this.#launch().finally(() => {
      this.#starting = undefined;
    });
    return this.#starting;
  }

  /**
   * Calls `method` on the host (see {@link LinkClient.call}).
   * @throws {LinkError} `HOST_GONE` (`not_started`) when no host runs.
   */
  async call(
    method: string,
    params?: Readonly<Record<string, unknown>>,
    options?: LinkCallOptions,
  ): Promise<unknown> {
    if (this.#starting !== undefined) await this.#starting;
    const link = this.#state === "running" ? this.#instance?.link : undefined;
    if (link === undefined) {
      const message = `${method} was not started: the host process is not running`;
      throw new LinkError({ code: "HOST_GONE", message, method, completion: "not_started" });
    }
    return link.call(method, params, options);
  }

  /**
   * Ends the host: SIGTERM, then SIGKILL after `terminateGraceMs`. Resolves once it has exited
   * and its folder is removed; `undefined` when no host ran.
   */
  terminate(): Promise<TerminateProcessResult | undefined> {
    const instance = this.#instance;
    if (instance === undefined) return Promise.resolve(undefined);
    this.#stopping ??= (async () => {
      const graceMs = this.#options.terminateGraceMs ?? 5000;
      const group = this.#options.processGroup === true;
      const result = await endHost(instance.child, { graceMs, group });
      await instance.gone;
      return result;
    })().finally(() => {
      this.#stopping = undefined;
    });
    return this.#stopping;
  }

  /** Ends the running host (if any) and starts a new one. */
  async restart(): Promise<void> {
    await this.#starting?.catch(() => undefined);
    await this.terminate();
    await this.start();
  }

  /** Ends the host and leaves nothing behind: no process, no socket, no folder. Final. */
  async close(): Promise<void> {
    const starting = this.#starting;
    this.#state = "closed";
    await starting?.catch(() => undefined);
    await this.terminate();
  }

  async #launch(): Promise<void> {
    this.#state = "starting";
    let instance: HostInstance;
    try {
      instance = await launchHost(this.#options);
    } catch (error) {
      if (this.#state === "starting") this.#state = "stopped";
      throw error;
    }
    this.#instance = instance;
    const stopped = (): void => {
      if (this.#state === "running" && this.#instance === instance) this.#state = "stopped";
    };
    // A failed folder removal surfaces through terminate() and close(), which await `gone`.
    instance.gone.then(stopped, stopped);
    if (this.#options.onUnresponsive !== "keep") {
      instance.link.onDisconnect((disconnect) => {
        if (disconnect.code === "HOST_UNRESPONSIVE" && this.#instance === instance) {
          this.terminate().catch(() => undefined);
        }
      });
    }
    // `state`, not `#state`: close() may have run while this awaited.
    if (this.state === "closed") {
      await this.terminate(); // closed while starting
      return;
    }
    this.#state = "running";
  }
}
