import { isTerminalJobStatus } from "@dcc/cancel";
import type { JobRecord, JobStore } from "./job-store.ts";

/** Options for {@link InMemoryJobStore}. */
export interface InMemoryJobStoreOptions {
  /** Most records kept; the oldest finished ones go first. Default 1000. */
  maxRecords?: number;
  /** How long a finished record stays readable, in milliseconds. Default 1 hour. */
  retentionMs?: number;
  /** Clock, for tests. */
  now?: () => number;
}

/** A bounded in-memory {@link JobStore}: finished jobs expire, and the record count is capped. */
export class InMemoryJobStore implements JobStore {
  readonly #records = new Map<string, JobRecord>();
  readonly #maxRecords: number;
  readonly #retentionMs: number;
  readonly #now: () => number;

  constructor(options: InMemoryJobStoreOptions = {}) {
    this.#maxRecords = Math.max(1, options.maxRecords ?? 1000);
    this.#retentionMs = Math.max(0, options.retentionMs ?? 3_600_000);
    this.#now = options.now ?? Date.now;
  }

  /** Number of records held. */
  get size(): number {
    this.#prune();
    return this.#records.size;
  }

  /** Stores a copy of `record`, then drops records beyond the cap. */
  create(record: JobRecord): void {
    this.#prune();
    this.#records.set(record.jobId, structuredClone(record));
    this.#enforceCap();
  }

  /** A copy of the record, or undefined when unknown or expired. */
  get(jobId: string): JobRecord | undefined {
    this.#prune();
    const record = this.#records.get(jobId);
    return record === undefined ? undefined : structuredClone(record);
  }

  /** Merges a copy of `patch` into the record; ignored when the record is gone. */
  update(jobId: string, patch: Partial<Omit<JobRecord, "jobId">>): void {
    const record = this.#records.get(jobId);
    if (record === undefined) return;
    Object.assign(record, structuredClone(patch));
  }

  /** Copies of all live records, newest first. */
  list(): JobRecord[] {
    this.#prune();
    return [...this.#records.values()].reverse().map((record) => structuredClone(record));
  }

  #prune(): void {
    const cutoff = this.#now() - this.#retentionMs;
    for (const [id, record] of this.#records) {
      if (isTerminalJobStatus(record.status) && (record.finishedAt ?? 0) < cutoff) {
        this.#records.delete(id);
      }
    }
  }

  #enforceCap(): void {
    // Insertion order is creation order: drop the oldest finished records first, then the oldest.
    for (const [id, record] of this.#records) {
      if (this.#records.size <= this.#maxRecords) return;
      if (isTerminalJobStatus(record.status)) this.#records.delete(id);
    }
    for (const id of this.#records.keys()) {
      if (this.#records.size <= this.#maxRecords) return;
      this.#records.delete(id);
    }
  }
}
