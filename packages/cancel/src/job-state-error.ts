import { DccMcpError } from "./dcc-mcp-error.ts";
import type { JobStatus } from "./job-status.ts";

/** Options for {@link JobStateError}. */
export interface JobStateErrorOptions {
  /** The transition that was refused, e.g. `"complete"`. */
  action: string;
  /** The job's status when it was refused. */
  status: JobStatus;
  /** The job's id, when it has one. */
  jobId?: string | undefined;
  /** Overrides the default message. */
  message?: string | undefined;
}

/**
 * Thrown when a {@link Job} is asked for a transition its status does not allow, such as
 * completing a job that is no longer running. Code `"INVALID_JOB_TRANSITION"`.
 */
export class JobStateError extends DccMcpError {
  override readonly name: string = "JobStateError";
  /** The refused transition. */
  readonly action: string;
  /** The job's status at the time. */
  readonly status: JobStatus;
  /** The job's id, when it has one. */
  readonly jobId: string | undefined;

  constructor(options: JobStateErrorOptions) {
    super({
      message:
        options.message ??
        `Cannot ${options.action} job${options.jobId === undefined ? "" : ` ${options.jobId}`} in status ${options.status}`,
      code: "INVALID_JOB_TRANSITION",
    });
    this.action = options.action;
    this.status = options.status;
    this.jobId = options.jobId;
  }
}
