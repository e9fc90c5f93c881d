/**
 * Statuses of a {@link Job}, as upstream. `pending` → `running` → `completed` | `failed`, plus
 * `cancelled` and `interrupted`; the last four are terminal.
 */
export type JobStatus =
  | "pending"
  | "running"
  | "completed"
  | "failed"
  | "cancelled"
  | "interrupted";

/** Every {@link JobStatus}, in lifecycle order. */
export const jobStatuses: readonly JobStatus[] = Object.freeze([
  "pending",
  "running",
  "completed",
  "failed",
  "cancelled",
  "interrupted",
]);

/** True for the statuses a job never leaves. */
export function isTerminalJobStatus(status: JobStatus): boolean {
  return status !== "pending" && status !== "running";
}
