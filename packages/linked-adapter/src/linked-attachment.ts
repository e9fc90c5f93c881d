import type { DccHostStatus } from "@dcc/executor";
import { CommandError, type CommandErrorOptions } from "@dcc/executor";
import { LinkClient, LinkError, type LinkHeartbeatOptions } from "@dcc/link";
import { Listeners } from "./internal/listeners.ts";
import { type ConnectionInfo, readConnectionFile } from "./internal/read-connection-file.ts";
import { type CreateCommandError, isHostGone, linkCommandError } from "./link-command-error.ts";
import type { LinkedConnection, LinkedHostEvent, LinkedLaneAccess } from "./linked-connection.ts";

/** Options for {@link LinkedAttachment}. */
export interface LinkedAttachmentOptions {
  /** The DCC's name in messages, e.g. `"Blender"`. */
  displayName: string;
  /**
   * The connection file the DCC-side plug-in wrote: JSON `{ "socket": path, "token": string,
   * "pid"?: number }` (mode 0600; see `write_connection_file` in `dcc_link`).
   */
  connectionFile: string;
  /** Deadline of one call, unless the caller's signal ends it first. Default 300000 ms. */
  callTimeoutMs?: number | undefined;
  /** How often to look for the DCC again once it has gone. Default 2000 ms. */
  retryMs?: number | undefined;
  /**
   * The link's heartbeat. Default `{ intervalMs: 2000, timeoutMs: 30000, pumpStallMs: 120000 }`:
   * an interactive DCC may redraw or run a long command for a while.
   */
  heartbeat?: LinkHeartbeatOptions | undefined;
  /**
   * What the user does to reattach, said when the DCC has gone. Default: start it again with its
   * plug-in enabled.
   */
  reattachHint?: string | undefined;
  /** Tells the server when the DCC cannot be reached, and when it is back (`reportHost`). */
  onStatus: (status: DccHostStatus) => void;
  /** Makes the errors calls throw; `CommandError` by default. */
  createError?: CreateCommandError | undefined;
}

/**
 * A DCC the user runs (with its plug-in serving `@dcc/link`), reached through the connection file
 * the plug-in wrote. Nothing here ends it. A call past its deadline is abandoned (the plug-in is
 * asked to cancel it). When the DCC quits, the host is reported unavailable and the file is read
 * again every `retryMs` (a new DCC writes a new token), so starting the DCC again reattaches.
 */
export class LinkedAttachment implements LinkedConnection {
  readonly #options: LinkedAttachmentOptions;
  readonly #events = new Listeners<LinkedHostEvent>();
  #client: LinkClient | undefined;
  #info: ConnectionInfo | undefined;
  #attaches = 0;
  #closed = false;
  // Set when the current attachment's link goes: the lanes to it stop.
  #laneClosed = new Int32Array(new SharedArrayBuffer(4));
  #retryTimer: NodeJS.Timeout | undefined;

  constructor(options: LinkedAttachmentOptions) {
    this.#options = options;
  }

  /** The attached DCC's process id, as its connection file gives it. */
  get pid(): number | undefined {
    return this.#info?.pid;
  }

  /** How many times a DCC was attached, the first included. */
  get launches(): number {
    return this.#attaches;
  }

  /** Always false: an attached DCC was started by someone else, outside any sandbox of ours. */
  get sandboxed(): boolean {
    return false;
  }

  /** Always undefined: an attached DCC has no session folder of ours. */
  get sessionDir(): string | undefined {
    return undefined;
  }

  /** Always "": an attached DCC's output is its own. */
  get output(): string {
    return "";
  }

  /** Attaches. @throws {Error} naming the connection file when it cannot be read or the DCC does not answer. */
  async start(signal?: AbortSignal): Promise<void> {
    signal?.throwIfAborted();
    await this.#attach();
  }

  /** Calls `method` of the attached DCC. @throws {CommandError} as {@link LinkedHost.call}. */
  async call(
    command: string,
    method: string,
    params: Readonly<Record<string, unknown>>,
    signal: AbortSignal,
  ): Promise<unknown> {
    const client = this.#client;
    if (client === undefined) {
      throw this.#create({
        command,
        code: "HOST_GONE",
        message: `${command} did not run: no ${this.#options.displayName} is attached. ${this.#hint()}`,
        completion: "not_started",
      });
    }
    try {
      return await client.call(method, params, {
        signal,
        timeoutMs: this.#options.callTimeoutMs ?? 300_000,
      });
    } catch (error) {
      if (isHostGone(error)) this.#lost();
      const failure = linkCommandError(error, {
        command,
        displayName: this.#options.displayName,
        afterGone: this.#hint(),
        createError: this.#options.createError,
      });
      // A command past its deadline is abandoned, never ended with the DCC: say so.
      if (error instanceof LinkError && error.code === "LINK_TIMEOUT") {
        throw withNote(failure, this.#timeoutNote(), this.#create.bind(this));
      }
      throw failure;
    }
  }

  /** What a sandbox thread needs to reach the attached DCC on its own connection. */
  laneAccess(): LinkedLaneAccess | undefined {
    const client = this.#client;
    if (this.#closed || client === undefined || client.state !== "connected") return undefined;
    return {
      access: client.access(),
      key: `${this.#info?.pid ?? "unknown"}/${this.#attaches}`,
      closed: this.#laneClosed,
    };
  }

  /** Listens to the DCC going (`exit`) and being reattached (`restart`). */
  onEvent(listener: (event: LinkedHostEvent) => void): () => void {
    return this.#events.add(listener);
  }

  /** Closes the link (the DCC goes on running). Final. */
  async close(): Promise<void> {
    this.#closed = true;
    Atomics.store(this.#laneClosed, 0, 1);
    clearTimeout(this.#retryTimer);
    await this.#client?.close();
    this.#client = undefined;
  }

  #hint(): string {
    return (
      this.#options.reattachHint ??
      `Start ${this.#options.displayName} again with its DCC Link plug-in enabled; the adapter reattaches.`
    );
  }

  #timeoutNote(): string {
    const name = this.#options.displayName;
    return `The attached ${name} was not ended (it is the user's): it may still be running the command, and later commands wait behind it. Long work belongs in an async job: async: true with a larger timeout_secs.`;
  }

  #create(init: CommandErrorOptions): CommandError {
    return (this.#options.createError ?? ((options) => new CommandError(options)))(init);
  }

  async #attach(): Promise<void> {
    const file = this.#options.connectionFile;
    const info = await readConnectionFile(file, this.#options.displayName);
    const client = new LinkClient({
      endpoint: { kind: "unix", path: info.socket },
      token: info.token,
      callTimeoutMs: this.#options.callTimeoutMs ?? 300_000,
      heartbeat: this.#options.heartbeat ?? {
        intervalMs: 2000,
        timeoutMs: 30_000,
        pumpStallMs: 120_000,
      },
    });
    try {
      await client.connect();
    } catch (error) {
      await client.close();
      throw new Error(
        `${this.#options.displayName} at ${file} (pid ${info.pid ?? "unknown"}) did not answer: ${(error as Error).message}`,
        { cause: error },
      );
    }
    if (this.#closed) {
      await client.close();
      return;
    }
    this.#info = info;
    this.#client = client;
    this.#attaches += 1;
    const laneClosed = new Int32Array(new SharedArrayBuffer(4));
    this.#laneClosed = laneClosed;
    client.onDisconnect((disconnect) => {
      // A DCC that stopped answering may still hold the lanes' connections.
      Atomics.store(laneClosed, 0, 1);
      if (disconnect.code === "HOST_GONE" || disconnect.code === "HOST_UNRESPONSIVE") this.#lost();
    });
  }

  #lost(): void {
    if (this.#closed || this.#client === undefined) return;
    const client = this.#client;
    this.#client = undefined;
    client.close().catch(() => undefined);
    const name = this.#options.displayName;
    const reason = `the attached ${name} (pid ${this.#info?.pid ?? "unknown"}) closed its link`;
    this.#events.emit({ type: "exit", reason });
    this.#options.onStatus({
      state: "unavailable",
      reason: `${reason}; waiting for a ${name} with its DCC Link plug-in to write ${this.#options.connectionFile}`,
    });
    this.#retry();
  }

  #retry(): void {
    clearTimeout(this.#retryTimer);
    this.#retryTimer = setTimeout(() => {
      if (this.#closed) return;
      this.#attach().then(
        () => {
          if (this.#closed) return;
          this.#events.emit({ type: "restart", launches: this.#attaches });
          this.#options.onStatus({ state: "ready" });
        },
        () => this.#retry(),
      );
    }, this.#options.retryMs ?? 2000);
    this.#retryTimer.unref();
  }
}

/** `failure` (a `CommandError`) with `note` added to its message; anything else as it is. */
function withNote(
  failure: unknown,
  note: string,
  create: (init: CommandErrorOptions) => CommandError,
): unknown {
  if (!(failure instanceof CommandError)) return failure;
  return create({
    command: failure.command,
    code: failure.code,
    message: `${failure.message} ${note}`,
    completion: failure.completion,
    data: failure.data,
    cause: failure.cause,
  });
}
