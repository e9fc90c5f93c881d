// The tool-call event of a job this worker ran (`phase: "job"`), for the worker's audit line: the
// same job id as the server's submission line, the script and its hash, the job's result.
import { createHash } from "node:crypto";
import type { DccToolCallEvent } from "@dcc/mcp-bridge";
import type { FarmJobData } from "./farm-keys.ts";

type Envelope = { success: boolean; message: string; [field: string]: unknown };

/** The event of one finished job. */
export function jobEvent(
  jobId: string,
  data: FarmJobData,
  result: Envelope,
  durationMs: number,
): DccToolCallEvent {
  const script =
    data.code !== undefined
      ? { code: data.code, sha256: createHash("sha256").update(data.code, "utf8").digest("hex") }
      : {
          ...(data.filePath === undefined ? {} : { filePath: data.filePath }),
          ...(data.params === undefined ? {} : { params: data.params }),
          ...(data.script === undefined ? {} : { sha256: data.script.sha256 }),
        };
  return {
    tool: data.tool ?? "dcc_execute",
    kind: "execute",
    dccName: data.dccName,
    result,
    durationMs,
    sessionId: data.sessionId,
    tokenLabel: data.tokenLabel,
    clientName: data.clientName,
    phase: "job",
    jobId,
    async: true,
    script,
  };
}
