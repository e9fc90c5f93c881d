import type { BridgeResult } from "./bridge-executor.ts";

/** One finished call of a search or execute tool, as {@link DccServerOptions.onToolCall} sees it. */
export interface DccToolCallEvent {
  /** The tool's name, e.g. `dcc_execute` or `maya_search`. */
  readonly tool: string;
  /** `search` or `execute` (job status and cancel actions of the execute tool count as `execute`). */
  readonly kind: "search" | "execute";
  /** The DCC instance the tool belongs to. */
  readonly dccName: string;
  /** The envelope the tool answered with (for an async call: the job handle). */
  readonly result: BridgeResult;
  /** Time from the call's start to its answer, in ms. */
  readonly durationMs: number;
  /** The transport session, when the call came through one. */
  readonly sessionId: string | undefined;
  /** The label of the bearer token the call presented, when the server has labelled tokens. */
  readonly tokenLabel?: string | undefined;
  /** The name the client gave in `initialize` (or its 2026-07-28 request envelope). */
  readonly clientName?: string | undefined;
}

/** Receives each finished tool call; what it throws is ignored so it can never fail a call. */
export type DccToolCallObserver = (event: DccToolCallEvent) => void;
