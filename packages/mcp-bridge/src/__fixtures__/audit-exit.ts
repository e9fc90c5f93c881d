// A process that records one audit line to a file it cannot write, then exits at once: what a
// server does when stopped with an unwritable audit log.
import { createAuditLog } from "../audit.ts";

const log = await createAuditLog({
  file: process.argv[2] as string,
  maxBytes: Number(process.argv[3]),
  onWarning: () => {},
});
log.record({
  tool: "dcc_execute",
  kind: "execute",
  dccName: "maya",
  result: { success: true, message: "ok" },
  durationMs: 1,
  sessionId: undefined,
});
process.exit(0);
