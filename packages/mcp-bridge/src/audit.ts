/**
 * `@dcc/mcp-bridge/audit`: the audit log of a DCC MCP server, one JSON line per tool call (who,
 * what script, which job, what it did), written with pino to size-rotated files. A subpath of its
 * own so that servers without an audit log never load pino. Pass {@link AuditLog.record} as the
 * server's `onToolCall` (the reference server and `dcc-farm-worker` do, with `--audit-log`).
 */
export type { AuditLog, AuditLogOptions } from "./audit-log.ts";
export { createAuditLog } from "./audit-log.ts";
export type { AuditLine } from "./internal/audit-line.ts";
export { auditLineVersion } from "./internal/audit-line.ts";
