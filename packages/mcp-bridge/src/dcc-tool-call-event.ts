import type { BridgeResult } from "./bridge-executor.ts";

/** The script an execute call ran (or submitted), as the audit log records it. */
export interface DccToolCallScript {
  /** The script's text, for inline code. */
  readonly code?: string;
  /** The materialized script a `file_path` call ran. */
  readonly filePath?: string;
  /** The parameters of a `file_path` call. */
  readonly params?: Record<string, unknown>;
  /**
   * SHA-256 (hex) of what ran: of `code`, or of the file a `file_path` call ran (as the executor
   * verified it, else the `sha256` the call asked for).
   */
  readonly sha256?: string;
}

/**
 * One finished call of a search or execute tool, as {@link DccServerOptions.onToolCall} sees it,
 * or (with `phase: "job"`) the end of an async job such a call started.
 */
export interface DccToolCallEvent {
  /** The tool's name, e.g. `dcc_execute` or `maya_search`. */
  readonly tool: string;
  /** `search` or `execute` (job status and cancel actions of the execute tool count as `execute`). */
  readonly kind: "search" | "execute";
  /** The DCC instance the tool belongs to. */
  readonly dccName: string;
  /**
   * The envelope the tool answered with (for an async call: the job handle; for a job's end: the
   * job's result). Its `stats` carry the dispatch count and commands, its `transaction` or
   * `rollback` what became of the script's changes.
   */
  readonly result: BridgeResult;
  /** Time from the call's start to its answer (for a job's end: the job's run), in ms. */
  readonly durationMs: number;
  /** The transport session, when the call came through one. */
  readonly sessionId: string | undefined;
  /**
   * The label of the labelled bearer token the call presented: the only verified name of the
   * client (undefined for the unlabelled token, no token, stdio).
   */
  readonly tokenLabel?: string | undefined;
  /**
   * The name the client gave itself in `initialize` (or its 2026-07-28 request envelope): a
   * claim, not verified; any client can call itself anything (the audit log writes it as
   * `client_claimed`, never as `client`).
   */
  readonly clientName?: string | undefined;
  /**
   * `call` (default): a tool call answered. `job`: an async job this server ran finished; its
   * call was recorded before, with the same `jobId`, when it was submitted.
   */
  readonly phase?: "call" | "job";
  /**
   * The server-owned job id: of a synchronous script, of an async job (its submission and its
   * end), or the job a `job_action` asked about. Undefined for searches and refused calls.
   */
  readonly jobId?: string | undefined;
  /** For `dcc_execute({ job_id, job_action })`: which action. */
  readonly jobAction?: "status" | "result" | "cancel" | undefined;
  /** Whether the script was submitted as an async job. */
  readonly async?: boolean | undefined;
  /** The script of an execute call that named one. */
  readonly script?: DccToolCallScript | undefined;
}

/** Receives each finished tool call; what it throws is ignored so it can never fail a call. */
export type DccToolCallObserver = (event: DccToolCallEvent) => void;
