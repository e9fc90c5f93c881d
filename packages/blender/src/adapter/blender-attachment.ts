import { readFile } from "node:fs/promises";
import type { DccHostStatus } from "@dcc/executor";
import { type LinkAccess, LinkClient } from "@dcc/link";
import { BlenderCommandError } from "./blender-command-error.ts";
import type { BlenderConnection } from "./internal/blender-connection.ts";
import { commandFailure, isGone } from "./internal/command-failure.ts";

/** Options for {@link BlenderAttachment}. */
export interface BlenderAttachmentOptions {
  /** The `connection.json` the add-on wrote (`{ socket, token, pid }`). */
  connectionFile: string;
  /** Deadline of one call, unless the caller's signal ends it first. */
  callTimeoutMs: number;
  /** How often to look for the Blender again once it has gone. */
  retryMs: number;
  /** Tells the server when Blender cannot be reached, and when it is back. */
  onStatus: (status: DccHostStatus) => void;
}

const again =
  "Start Blender again with the DCC Link add-on enabled (and the same DCC_BLENDER_LINK_DIR); the adapter reattaches.";

interface ConnectionInfo {
  socket: string;
  token: string;
  pid: number | undefined;
}

/**
 * An interactive Blender that runs the `dcc_blender_link` add-on, reached through the
 * `connection.json` it wrote. It is the user's Blender: nothing here ends it. A call that outlives
 * its deadline is abandoned (the add-on is asked to cancel it); when Blender quits, the adapter
 * reports its host unavailable and looks for it again (a new Blender writes a new token), so
 * restarting Blender with the add-on reattaches.
 */
export class BlenderAttachment implements BlenderConnection {
  readonly #options: BlenderAttachmentOptions;
  #client: LinkClient | undefined;
  #info: ConnectionInfo | undefined;
  #attaches = 0;
  #closed = false;
  #retryTimer: NodeJS.Timeout | undefined;

  constructor(options: BlenderAttachmentOptions) {
    this.#options = options;
  }

  get pid(): number | undefined {
    return this.#info?.pid;
  }

  get launches(): number {
    return this.#attaches;
  }

  get sessionDir(): string | undefined {
    return undefined;
  }

  get output(): string {
    return "";
  }

  /** @throws {Error} naming the connection file when it cannot be read or Blender does not answer. */
  async start(signal?: AbortSignal): Promise<void> {
    signal?.throwIfAborted();
    await this.#attach();
  }

  async call(
    command: string,
    method: string,
    params: Readonly<Record<string, unknown>>,
    signal: AbortSignal,
  ): Promise<unknown> {
    const client = this.#client;
    if (client === undefined) {
      throw new BlenderCommandError({
        command,
        code: "HOST_GONE",
        message: `${command} did not run: no Blender is attached. ${again}`,
        completion: "not_started",
      });
    }
    try {
      return await client.call(method, params, { signal, timeoutMs: this.#options.callTimeoutMs });
    } catch (error) {
      if (isGone(error)) this.#lost();
      throw commandFailure(command, error, again);
    }
  }

  /** What a sandbox thread needs to reach the attached Blender on its own connection. */
  laneAccess(): { access: LinkAccess; key: string } | undefined {
    const client = this.#client;
    if (this.#closed || client === undefined || client.state !== "connected") return undefined;
    return { access: client.access(), key: `${this.#info?.pid ?? "unknown"}/${this.#attaches}` };
  }

  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#retryTimer);
    await this.#client?.close();
    this.#client = undefined;
  }

  async #attach(): Promise<void> {
    const info = await readConnectionFile(this.#options.connectionFile);
    const client = new LinkClient({
      endpoint: { kind: "unix", path: info.socket },
      token: info.token,
      callTimeoutMs: this.#options.callTimeoutMs,
      // An interactive Blender may redraw or run a long operator for a while.
      heartbeat: { intervalMs: 2000, timeoutMs: 30_000, pumpStallMs: 120_000 },
    });
    try {
      await client.connect();
    } catch (error) {
      await client.close();
      throw new Error(
        `Blender at ${this.#options.connectionFile} (pid ${info.pid ?? "unknown"}) did not answer: ${(error as Error).message}`,
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
    client.onDisconnect((disconnect) => {
      if (disconnect.code === "HOST_GONE" || disconnect.code === "HOST_UNRESPONSIVE") this.#lost();
    });
  }

  #lost(): void {
    if (this.#closed || this.#client === undefined) return;
    const client = this.#client;
    this.#client = undefined;
    client.close().catch(() => undefined);
    this.#options.onStatus({
      state: "unavailable",
      reason: `the attached Blender (pid ${this.#info?.pid ?? "unknown"}) closed its link; waiting for a Blender with the DCC Link add-on to write ${this.#options.connectionFile}`,
    });
    this.#retry();
  }

  #retry(): void {
    clearTimeout(this.#retryTimer);
    this.#retryTimer = setTimeout(() => {
      if (this.#closed) return;
      this.#attach().then(
        () => this.#options.onStatus({ state: "ready" }),
        () => this.#retry(),
      );
    }, this.#options.retryMs);
    this.#retryTimer.unref();
  }
}

/** Reads and checks the add-on's `connection.json`. */
async function readConnectionFile(path: string): Promise<ConnectionInfo> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readFile(path, "utf8"));
  } catch (error) {
    throw new Error(
      `Cannot read the Blender connection file ${path}: ${(error as Error).message}. Start Blender with the DCC Link add-on enabled; it prints where it wrote the file.`,
      { cause: error },
    );
  }
  const info = parsed as Partial<Record<string, unknown>> | null;
  if (
    info === null ||
    typeof info !== "object" ||
    typeof info["socket"] !== "string" ||
    typeof info["token"] !== "string"
  ) {
    throw new Error(`The Blender connection file ${path} has no "socket" and "token" strings`);
  }
  return {
    socket: info["socket"],
    token: info["token"],
    pid: typeof info["pid"] === "number" ? info["pid"] : undefined,
  };
}
