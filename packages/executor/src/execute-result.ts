import type { ExecuteApproval } from "./approval.ts";
import type { DccRollbackRefusal } from "./dcc-transaction.ts";
import type { ExecuteLogEntry } from "./execute-options.ts";

/** Any value JSON can carry. */
export type JsonValue =
  | null
  | boolean
  | number
  | string
  | JsonValue[]
  | { [key: string]: JsonValue };

/** Why an execution failed. */
export type ExecuteErrorCode =
  | "INVALID_INPUT"
  | "SCRIPT_ERROR"
  | "TIMEOUT"
  | "CANCELLED"
  | "LIMIT_EXCEEDED"
  | "INTERNAL";

/** Every {@link ExecuteErrorCode}, by name. */
export const executeErrorCodes: {
  readonly invalidInput: "INVALID_INPUT";
  readonly scriptError: "SCRIPT_ERROR";
  readonly timeout: "TIMEOUT";
  readonly cancelled: "CANCELLED";
  readonly limitExceeded: "LIMIT_EXCEEDED";
  readonly internal: "INTERNAL";
} = {
  invalidInput: "INVALID_INPUT",
  scriptError: "SCRIPT_ERROR",
  timeout: "TIMEOUT",
  cancelled: "CANCELLED",
  limitExceeded: "LIMIT_EXCEEDED",
  internal: "INTERNAL",
} as const;

/**
 * Whether the host side is known to be settled: `complete` (every started host command finished),
 * `unknown` (a host command was still running when the script was stopped, so its effect in the
 * DCC is unknown), `not_started` (no script code ran).
 */
export type ExecuteCompletion = "complete" | "unknown" | "not_started";

/** Which limit an execution ran into. */
export type ExecuteLimitName =
  | "timeout"
  | "memory"
  | "stack"
  | "output"
  | "code"
  | "dispatchCalls"
  | "logs";

/** Counters of one execution. */
export interface ExecuteStats {
  /** Wall-clock time from `execute()` to its result, in milliseconds. */
  durationMs: number;
  /** Number of `dispatch` calls the script made. */
  dispatchCalls: number;
  /**
   * The host commands those calls reached, with how often each was called; absent when none.
   * At most 200 names: calls of further names (or names over 128 characters) count under
   * `"(other)"`.
   */
  commands?: Record<string, number>;
  /**
   * What the script's commands reported creating and removing, when any returned a change report
   * (`{ created, removed }`, as Blender's operators do); absent otherwise.
   */
  changes?: ExecuteChanges;
  /**
   * The approval questions of the script (see `ApprovalRule`), one per rule: what was asked,
   * the answer and who gave it, and how long the script waited; absent when none was asked.
   */
  approvals?: ExecuteApproval[];
}

/**
 * The data-blocks a script's commands reported creating and removing (their paths, else
 * `type name`), at most 50 in each list; `more` counts the rest. They describe what the commands
 * did, even when the script's changes were then rolled back.
 */
export interface ExecuteChanges {
  created: string[];
  removed: string[];
  more?: { created?: number; removed?: number };
}

/** An image a host command returned and the script's value refers to (see `HostImage`). */
export interface ExecuteImage {
  /** The id the script's value refers to with `{ $image: id }`. */
  id: string;
  mimeType: "image/png" | "image/jpeg";
  width: number;
  height: number;
  /** The encoded image, base64. */
  data: string;
}

/** An image the script's value referred to but the result could not carry. */
export interface ExecuteImageDropped {
  id: string;
  width: number;
  height: number;
  /** Size of the encoded image in bytes. */
  bytes: number;
  /** Which image limit it ran into. */
  reason: string;
}

/**
 * What became of a script's changes to the host (the JSON of a `DccTransactionReport`): in a
 * success's `transaction` (the undo step that holds them), in a failure's `rollback` (whether the
 * scene is back as it was before the script, and if not, why). Absent when the script sent no
 * host command through the main thread.
 */
export interface ExecuteTransactionReport {
  /** True when the scene is as it was before the script's first host command. */
  rolledBack: boolean;
  /** The undo step holding the script's changes (after success, or when they were kept). */
  undoStep?: string;
  /** Why not rolled back (or why no undo step). */
  reason?: DccRollbackRefusal;
  /** The reason in words. */
  detail?: string;
  /** Files the script wrote (saves, renders, exports): never undone. */
  filesWritten?: string[];
}

/**
 * How an output over `limits.maxOutputChars` was cut to fit it. The script still succeeded and
 * its changes were kept; the output says in place what it lost: a shortened array ends with
 * `"… N more items"`, a shortened object has a `"…": "N more keys"` entry, a shortened string
 * ends with `… [N more chars]`, and an array or object below the kept depth reads
 * `"[array of N]"` or `"[object]"`.
 */
export interface ExecuteTruncation {
  /** The output limit, in characters of JSON. */
  limitChars: number;
  /** Characters of the JSON that was kept. */
  keptChars: number;
  /**
   * Characters of the whole output's JSON; absent when the output was far over the limit (it
   * is then not measured: measuring would cost as much as the output).
   */
  originalChars?: number;
  /** Array items left out. */
  itemsLeftOut: number;
  /** Object keys left out. */
  keysLeftOut: number;
  /** Strings shortened. */
  stringsShortened: number;
  /** Characters left out of those strings. */
  charsLeftOut: number;
  /** Arrays and objects below the kept depth, summarised. */
  valuesSummarised: number;
  /** The same in a sentence, for the agent. */
  note: string;
}

/** A successful execution. */
export interface ExecuteSuccess {
  success: true;
  /** `Script executed successfully on {dcc}.` */
  message: string;
  /** The script's top-level `return` value (`null` without one). */
  output: JsonValue;
  logs: ExecuteLogEntry[];
  /** Extra facts about the run; `{}` for inline code. */
  context: Record<string, JsonValue>;
  completion: "complete";
  stats: ExecuteStats;
  /**
   * The images the output refers to, within `maxImages` and `maxImageBytes`; absent when none.
   * The MCP bridge sends them as `image` content, not in the JSON.
   */
  images?: ExecuteImage[];
  /** Images the output referred to that were left out, and why; absent when none. */
  droppedImages?: ExecuteImageDropped[];
  /** The undo step that holds the script's changes (see {@link ExecuteTransactionReport}). */
  transaction?: ExecuteTransactionReport;
  /** Present when the output was over the output limit and was cut to fit it. */
  truncated?: ExecuteTruncation;
}

/** A failed execution. */
export interface ExecuteFailure {
  success: false;
  /** One of the upstream messages: failed, timed out, cancelled, parameters invalid. */
  message: string;
  /** What went wrong, for the agent (error name, message and script line where known). */
  error: string;
  errorCode: ExecuteErrorCode;
  /** The limit that was hit, for `TIMEOUT` and `LIMIT_EXCEEDED`. */
  limit?: ExecuteLimitName;
  logs: ExecuteLogEntry[];
  completion: ExecuteCompletion;
  stats: ExecuteStats;
  /** Whether the script's changes were rolled back (see {@link ExecuteTransactionReport}). */
  rollback?: ExecuteTransactionReport;
}

/** The JSON result of {@link DccApiExecutor.execute}. */
export type ExecuteResult = ExecuteSuccess | ExecuteFailure;
