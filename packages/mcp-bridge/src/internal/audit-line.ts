// One audit line from a tool-call event: a fixed schema (version `v`), the facts a studio needs
// after the fact, and nothing secret. Tokens never reach the event (only their label does);
// parameters whose names look secret are masked; the script's environment is never recorded.
import type { DccToolCallEvent } from "../dcc-tool-call-event.ts";

/**
 * The schema version of {@link AuditLine}; raised when a field changes meaning or type (2:
 * `client` is only ever a labelled token's label; the name a client gives itself is
 * `client_claimed`).
 */
export const auditLineVersion = 2;

/** One JSON line of the audit log; the README documents every field. */
export interface AuditLine {
  v: number;
  time: string;
  event: "call" | "job";
  session: string;
  /** The label of the labelled token the call presented (verified), else `-`. */
  client: string;
  /** The name the client gave itself (`initialize`, or its request envelope): not verified. */
  client_claimed?: string;
  tool: string;
  dcc: string;
  kind: "search" | "execute";
  job_id: string | null;
  job_action?: string;
  async?: boolean;
  script_sha256?: string;
  script?: string;
  file_path?: string;
  params?: unknown;
  outcome: { success: boolean; errorCode: string | null; completion: string | null };
  dispatches: number | null;
  commands: Record<string, number> | null;
  created?: string[];
  removed?: string[];
  changes_more?: { created?: number; removed?: number };
  files_written?: string[];
  rolled_back?: boolean;
  /**
   * The approval questions of the script: the rule, the command and what it touched, the answer
   * (`approved`, `preapproved`, or why it was denied), who answered, and the wait in ms.
   */
  approvals?: AuditApproval[];
  duration_ms: number;
}

/** One approval question in an {@link AuditLine}. */
export interface AuditApproval {
  rule: string;
  command: string;
  summary: string;
  answer: string;
  by?: string;
  waited_ms: number;
}

const secretName = /pass(word|wd|phrase)?|secret|token|api[-_]?key|credential|auth/i;
const maxDepth = 8;

/** The audit line of `event`; `withScript: false` leaves the script's text out (its hash stays). */
export function auditLine(
  event: DccToolCallEvent,
  withScript: boolean,
  now: Date = new Date(),
): AuditLine {
  const result = event.result as Record<string, unknown>;
  const stats = objectOr(result["stats"]);
  const report = objectOr(result["transaction"]) ?? objectOr(result["rollback"]);
  const script = event.script;
  const line: AuditLine = {
    v: auditLineVersion,
    time: now.toISOString(),
    event: event.phase ?? "call",
    session: event.sessionId ?? "-",
    // Only a labelled token says who the client is; the name it gives itself is its claim.
    client: event.tokenLabel ?? "-",
    ...(event.clientName === undefined ? {} : { client_claimed: event.clientName }),
    tool: event.tool,
    dcc: event.dccName,
    kind: event.kind,
    job_id: event.jobId ?? null,
    outcome: {
      success: result["success"] === true,
      errorCode: typeof result["errorCode"] === "string" ? result["errorCode"] : null,
      completion: typeof result["completion"] === "string" ? result["completion"] : null,
    },
    dispatches: typeof stats?.["dispatchCalls"] === "number" ? stats["dispatchCalls"] : null,
    commands: commandCounts(stats?.["commands"]),
    duration_ms: Math.round(event.durationMs * 1000) / 1000,
  };
  if (event.jobAction !== undefined) line.job_action = event.jobAction;
  if (event.async !== undefined) line.async = event.async;
  if (script?.sha256 !== undefined) line.script_sha256 = script.sha256;
  if (withScript && script?.code !== undefined) line.script = script.code;
  if (script?.filePath !== undefined) line.file_path = script.filePath;
  if (script?.params !== undefined) line.params = masked(script.params, 0);
  const approvals = auditApprovals(stats?.["approvals"]);
  if (approvals !== undefined) line.approvals = approvals;
  const changes = objectOr(stats?.["changes"]);
  if (changes !== undefined) {
    if (Array.isArray(changes["created"])) line.created = changes["created"].map(String);
    if (Array.isArray(changes["removed"])) line.removed = changes["removed"].map(String);
    const more = objectOr(changes["more"]);
    if (more !== undefined) line.changes_more = more as { created?: number; removed?: number };
  }
  const files = report?.["filesWritten"];
  if (Array.isArray(files)) line.files_written = files.map(String);
  if (typeof report?.["rolledBack"] === "boolean") line.rolled_back = report["rolledBack"];
  return line;
}

function objectOr(value: unknown): Record<string, unknown> | undefined {
  return value !== null && typeof value === "object" && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

function commandCounts(value: unknown): Record<string, number> | null {
  const counts = objectOr(value);
  if (counts === undefined) return null;
  const plain: Record<string, number> = {};
  for (const [name, count] of Object.entries(counts)) {
    if (typeof count === "number") plain[name] = count;
  }
  return plain;
}

/** A copy of `value` with the values of secret-looking keys replaced. */
function masked(value: unknown, depth: number): unknown {
  if (value === null || typeof value !== "object") return value;
  if (depth >= maxDepth) return "[…]";
  if (Array.isArray(value)) return value.map((item) => masked(item, depth + 1));
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
    copy[key] = secretName.test(key) ? "[redacted]" : masked(item, depth + 1);
  }
  return copy;
}

/** The approvals of a result's stats, in the line's shape (at most 16: one per rule). */
function auditApprovals(value: unknown): AuditApproval[] | undefined {
  if (!Array.isArray(value) || value.length === 0) return undefined;
  return value.slice(0, 16).map((entry) => {
    const approval = objectOr(entry) ?? {};
    const text = (key: string): string => String(approval[key] ?? "").slice(0, 300);
    const by = approval["by"];
    return {
      rule: text("rule"),
      command: text("command"),
      summary: text("summary"),
      answer: text("answer"),
      ...(typeof by === "string" ? { by: by.slice(0, 200) } : {}),
      waited_ms: typeof approval["waitedMs"] === "number" ? approval["waitedMs"] : 0,
    };
  });
}
