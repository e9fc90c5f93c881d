// One adapter of a composed server, as the executor its tools drive: it starts the adapter,
// builds its executor, follows the host status the adapter reports, and answers for it when it
// cannot (a failed start, a host that went away) so the failure stays inside its own tools.
import { type SearchLimits, searchLimits } from "@dcc/catalog";
import {
  type AdapterApprovalOptions,
  createAdapterExecutor,
  type DccAdapter,
  type DccApiExecutor,
  type DccHostStatus,
  type DccToolNames,
  type ExecutorLimits,
  resolveExecutorLimits,
} from "@dcc/executor";
import type {
  BridgeEnvelope,
  BridgeExecuteOptions,
  BridgeExecuteParamsRequest,
  BridgeExecutor,
} from "../bridge-executor.ts";
import type { DccAdapterStatus, DccServerAdapter } from "../dcc-server-adapter.ts";

/** How one slot is set up. */
export interface AdapterSlotSettings {
  adapter: DccAdapter;
  name: string;
  tools: DccToolNames;
  limits: Partial<ExecutorLimits>;
  scriptsDir: string | undefined;
  /** The approval rules that are on, for every adapter of the server. */
  approval?: AdapterApprovalOptions | undefined;
}

type SlotState = DccAdapterStatus | { readonly state: "starting" };

export class AdapterSlot implements BridgeExecutor, DccServerAdapter {
  readonly dccName: string;
  readonly name: string;
  readonly adapter: DccAdapter;
  readonly tools: DccToolNames;
  /** The resolved limits of its executor (checked before anything starts). */
  readonly limits: Readonly<ExecutorLimits>;
  /**
   * The search `limit` range its executor applies (the catalog's, the one copy of that number),
   * so the search tool's schema states the cap even before the executor exists.
   */
  readonly searchLimits: Readonly<SearchLimits> = searchLimits;
  readonly #settings: AdapterSlotSettings;
  readonly #startAbort = new AbortController();
  #state: SlotState = { state: "starting" };
  /** What the host reported while `start` was still running. */
  #reportedDuringStart: DccHostStatus | undefined;
  /** Aborts every running script when the host goes away; replaced when it comes back. */
  #hostGone = new AbortController();
  #executor: DccApiExecutor | undefined;

  /** @throws `DccMcpError` `INVALID_LIMITS` for bad limits. */
  constructor(settings: AdapterSlotSettings) {
    this.#settings = settings;
    this.adapter = settings.adapter;
    this.name = settings.name;
    this.dccName = settings.name;
    this.tools = settings.tools;
    this.limits = Object.freeze(resolveExecutorLimits(settings.limits));
  }

  get executor(): DccApiExecutor | undefined {
    return this.#executor;
  }

  get status(): DccAdapterStatus {
    const state = this.#state;
    // Only visible while createDccServer has not returned yet.
    return state.state === "starting" ? { state: "unavailable", reason: "starting" } : state;
  }

  get failed(): boolean {
    return this.#state.state === "failed";
  }

  /** Starts the adapter and builds its executor; never rejects (a failure is its status). */
  async start(timeoutMs: number): Promise<void> {
    const adapter = this.adapter;
    const context = {
      signal: this.#startAbort.signal,
      reportHost: (status: DccHostStatus) => this.#report(status),
    };
    let timer: NodeJS.Timeout | undefined;
    try {
      const started = Promise.resolve().then(() => adapter.start?.(context));
      started.catch(() => {}); // settles after a timeout too; its outcome is then moot
      const timedOut = new Promise<never>((_resolve, reject) => {
        timer = setTimeout(() => {
          const error = new Error(`did not start within ${timeoutMs} ms`);
          this.#startAbort.abort(error);
          reject(error);
        }, timeoutMs);
      });
      await Promise.race([started, timedOut]);
      if (this.#state.state !== "starting") return; // closed meanwhile
      this.#executor = createAdapterExecutor(adapter, {
        name: this.name,
        limits: this.#settings.limits,
        ...(this.#settings.scriptsDir === undefined ? {} : { scripts: this.#settings.scriptsDir }),
        ...(this.#settings.approval === undefined ? {} : { approval: this.#settings.approval }),
      });
      // Build the search index and start a sandbox worker before any request needs them: the
      // first search would otherwise build the index on its own request path, and the first
      // execute would wait for a worker thread to load QuickJS.
      this.#executor.search("");
      this.#executor.pool.warmUp().catch(() => {});
      this.#state = { state: "ready" };
      const reported = this.#reportedDuringStart;
      if (reported !== undefined) this.#report(reported);
    } catch (error) {
      if (this.#state.state === "starting") {
        this.#state = {
          state: "failed",
          reason: `${this.name} did not start: ${errorText(error)}`,
        };
      }
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * Instructions for `initialize`, or undefined (also when the adapter's text throws). An
   * adapter without undo says so here, once, rather than in every result.
   */
  instructions(): string | undefined {
    const own = this.#text(() => this.adapter.instructions?.(this.tools));
    if (this.adapter.beginTransaction !== undefined) return own;
    const noUndo = `${this.name} has no undo: a failed script's changes stay (not rolled back).`;
    return own === undefined ? noUndo : `${own}\n${noUndo}`;
  }

  /** The execute tool's description, or undefined for the bridge's default. */
  executeDescription(): string | undefined {
    return this.#text(() => this.adapter.executeDescription?.(this.tools));
  }

  search(query: string, options?: { limit?: number }): BridgeEnvelope {
    const executor = this.#executor;
    if (executor === undefined || this.#state.state === "failed") {
      return {
        success: false,
        message: `Search failed on ${this.name}.`,
        error: this.#reason(),
        errorCode: "HOST_UNAVAILABLE",
      } as BridgeEnvelope;
    }
    // Search needs only the catalog, so it keeps working while the host is away.
    return executor.search(query, options ?? {});
  }

  execute(code: string, options: BridgeExecuteOptions = {}): Promise<BridgeEnvelope> {
    return this.#run(options, (executor, linked) => executor.execute(code, linked));
  }

  executeParams(
    request: BridgeExecuteParamsRequest,
    options: BridgeExecuteOptions = {},
  ): Promise<BridgeEnvelope> {
    return this.#run(options, (executor, linked) => executor.executeParams(request, linked));
  }

  /** Ends the executor's sandbox pool; the adapter stays open. */
  async closeExecutor(): Promise<void> {
    await this.#executor?.close();
  }

  /** Closes the adapter (also after a failed start); never rejects. */
  async closeAdapter(): Promise<void> {
    this.#state = { state: "closed" };
    this.#startAbort.abort(new Error("The server is shutting down"));
    this.#hostGone.abort();
    try {
      await this.adapter.close?.();
    } catch {
      // Shutdown goes on: the other adapters still need closing.
    }
  }

  async #run(
    options: BridgeExecuteOptions,
    call: (executor: DccApiExecutor, options: BridgeExecuteOptions) => Promise<BridgeEnvelope>,
  ): Promise<BridgeEnvelope> {
    const executor = this.#executor;
    // A restarting host takes scripts: their commands wait for it to come back.
    const state = this.#state.state;
    if (executor === undefined || (state !== "ready" && state !== "restarting")) {
      return {
        success: false,
        message: `${this.name} is unavailable; the script did not run.`,
        error: this.#reason(),
        errorCode: "HOST_UNAVAILABLE",
        completion: "not_started",
      } as BridgeEnvelope;
    }
    const hostGone = this.#hostGone.signal;
    const linked = new AbortController();
    const forward = (): void => linked.abort(options.signal?.reason);
    options.signal?.addEventListener("abort", forward, { once: true });
    hostGone.addEventListener("abort", forward, { once: true });
    if (options.signal?.aborted) forward();
    try {
      const result = await call(executor, { ...options, signal: linked.signal });
      if (!result.success && hostGone.aborted && !options.signal?.aborted) {
        return {
          ...result,
          message: `Script stopped on ${this.name}: its host became unavailable.`,
          error: this.#reason(),
          errorCode: "HOST_UNAVAILABLE",
        } as BridgeEnvelope;
      }
      return result;
    } finally {
      options.signal?.removeEventListener("abort", forward);
      hostGone.removeEventListener("abort", forward);
    }
  }

  #report(status: DccHostStatus): void {
    const state = this.#state.state;
    if (state === "failed" || state === "closed") return;
    if (state === "starting") {
      this.#reportedDuringStart = status;
      return;
    }
    if (status.state === "unavailable") {
      this.#state = { state: "unavailable", reason: `${this.name}: ${status.reason}` };
      this.#hostGone.abort();
    } else if (status.state === "restarting") {
      if (state === "unavailable") this.#hostGone = new AbortController();
      this.#state = { state: "restarting", reason: `${this.name}: ${status.reason}` };
    } else if (state === "unavailable") {
      this.#hostGone = new AbortController();
      this.#state = { state: "ready" };
    } else if (state === "restarting") {
      this.#state = { state: "ready" };
    }
  }

  #reason(): string {
    const state = this.#state;
    if (state.state === "unavailable" || state.state === "failed" || state.state === "restarting")
      return state.reason;
    if (state.state === "closed") return `${this.name} is closed`;
    return `${this.name} is starting`;
  }

  #text(read: () => string | undefined): string | undefined {
    try {
      return read();
    } catch {
      return undefined;
    }
  }
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
