// The reference server's audit log: opened before the server so no call goes unrecorded, counted
// on the server's /metrics once it exists, closed after the server (its last job lines included).
import type { DccServer, DccToolCallObserver } from "@dcc/mcp-bridge";
import { createAuditLog } from "@dcc/mcp-bridge/audit";

/** The audit log of {@link ReferenceServerOptions.audit}. */
export interface ReferenceAuditOptions {
  /**
   * The log file, always the live one; rotated files go beside it as `<name>.1.<ext>` (the
   * newest), `<name>.2.<ext>`, … unless `maxBytes` is 0.
   */
  file: string;
  /** Record each script's text beside its hash. Default true. */
  script?: boolean;
  /** Rotation size in bytes; 0 never rotates `file`. Default 100 MiB. */
  maxBytes?: number;
  /** Files kept, the current one included. Default 10. */
  maxFiles?: number;
  /** Told once when the log cannot be written. Default: a line on stderr. */
  onWarning?: (message: string) => void;
}

/** Starts the server with the audit log as its `onToolCall`, when one is asked for. */
export async function withAuditLog<S extends DccServer>(
  audit: ReferenceAuditOptions | undefined,
  start: (onToolCall: DccToolCallObserver | undefined) => Promise<S>,
): Promise<S> {
  if (audit === undefined) return start(undefined);
  const log = await createAuditLog({
    ...audit,
    onWarning:
      audit.onWarning ?? ((message) => process.stderr.write(`dcc reference server: ${message}\n`)),
  });
  let server: S;
  try {
    server = await start(log.record);
  } catch (error) {
    await log.close();
    throw error;
  }
  if (server.metrics !== undefined) log.registerMetrics(server.metrics);
  // Over stdio the server also closes on its own, when stdin ends.
  const closed = server.closed.then(() => log.close());
  return {
    ...server,
    closed,
    async close() {
      await server.close();
      await closed;
    },
  };
}
