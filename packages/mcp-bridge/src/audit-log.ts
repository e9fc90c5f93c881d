import { type DestinationStream, pino } from "pino";
import { Counter, type Registry } from "prom-client";
import type { DccToolCallEvent } from "./dcc-tool-call-event.ts";
import { type AuditFileStream, openAuditFile } from "./internal/audit-file.ts";
import { auditLine, auditLineVersion } from "./internal/audit-line.ts";
import { McpBridgeError } from "./mcp-bridge-error.ts";

/** Options for {@link createAuditLog}. */
export interface AuditLogOptions {
  /**
   * The log file, always the live one (what `tail -F`, logrotate and log shippers follow). At
   * `maxBytes` it is renamed `audit.1.jsonl` (for `audit.jsonl`; older files move up to
   * `audit.2.jsonl` …) and a new one begun. Lines are appended to a file that exists. Missing
   * folders are created.
   */
  file: string;
  /** Record each script's text beside its SHA-256. Default true. */
  script?: boolean;
  /**
   * Most bytes of one file: a line that would take the live file past it is written to a new one
   * (the old one renamed, see `file`); 0 turns rotation off. Default 100 MiB.
   */
  maxBytes?: number;
  /**
   * Files kept, the live one included (2 or more): `audit.jsonl` and `audit.1.jsonl` …
   * `audit.<maxFiles - 1>.jsonl`; older ones are removed. Default 10.
   */
  maxFiles?: number;
  /** A registry to count dropped lines on (`dcc_audit_lines_dropped_total`), e.g. the server's `metrics`. */
  registry?: Registry;
  /**
   * How long after a write failure the file is opened again, in ms (a disk freed, a folder
   * created); lines in between are dropped. Default 30 000.
   */
  retryMs?: number;
  /** Told when writing fails: once per outage (not per line, nor per failed retry). Default `process.emitWarning`. */
  onWarning?: (message: string) => void;
}

/** A running audit log: pass {@link AuditLog.record} as `onToolCall`. */
export interface AuditLog {
  /** Writes one line for a tool-call event; never throws, never waits. */
  readonly record: (event: DccToolCallEvent) => void;
  /** Lines the file has received. */
  readonly written: number;
  /** Lines lost to a write failure (also counted in `dcc_audit_lines_dropped_total`). */
  readonly dropped: number;
  /**
   * Counts dropped lines on `registry` too (`dcc_audit_lines_dropped_total`, with the drops so
   * far), for a registry that exists only once the server has started (`server.metrics`).
   */
  registerMetrics(registry: Registry): void;
  /** Settles once every line recorded so far is written or dropped (bounded by `timeoutMs`, default 5000). */
  flush(timeoutMs?: number): Promise<void>;
  /** Flushes, then closes the file; later lines count as dropped. Idempotent. */
  close(): Promise<void>;
}

const droppedMetric = "dcc_audit_lines_dropped_total";
const defaultMaxBytes = 100 * 1024 * 1024;
const defaultMaxFiles = 10;
/** Most bytes waiting for the disk before lines are dropped instead of held in memory. */
const maxBufferedBytes = 16 * 1024 * 1024;

/**
 * Opens an audit log: one JSON line per tool call (schema in the README, with a version field
 * `v`), written through pino to the named file, rotated by size beside it, so it stays bounded. A write
 * failure (unwritable path, full disk) never fails or delays a call: it is reported once through
 * `onWarning`, and lost lines are counted; the file is opened again after `retryMs`.
 * @throws {@link McpBridgeError} `INVALID_CONFIG` for a bad size, file count or retry time; never
 *   for a path that cannot be written (that warns and drops).
 */
export async function createAuditLog(options: AuditLogOptions): Promise<AuditLog> {
  const { maxBytes = defaultMaxBytes, maxFiles = defaultMaxFiles, retryMs = 30_000 } = options;
  if (typeof options.file !== "string" || options.file === "") {
    throw new McpBridgeError({ code: "INVALID_CONFIG", message: "The audit log needs a file" });
  }
  for (const [name, value, least] of [
    ["maxBytes", maxBytes, 0],
    ["maxFiles", maxFiles, 2],
    ["retryMs", retryMs, 0],
  ] as const) {
    if (!Number.isSafeInteger(value) || value < least) {
      throw new McpBridgeError({
        code: "INVALID_CONFIG",
        message: `The audit log's ${name} must be a whole number, at least ${least}`,
      });
    }
  }
  const writer = new AuditWriter(options);
  await writer.open();
  return writer;
}

class AuditWriter implements AuditLog {
  readonly #options: AuditLogOptions;
  readonly #withScript: boolean;
  readonly #counters: Counter[] = [];
  readonly #logger;
  #stream: AuditFileStream | undefined;
  #failed = false;
  #failedAt = 0;
  #reopening = false;
  #warned = false;
  #closed: Promise<void> | undefined;
  /** Byte lengths of lines handed to the stream and not yet confirmed written, oldest first. */
  readonly #pending: number[] = [];
  #confirmedBytes = 0;
  #waiters: Array<() => void> = [];
  written = 0;
  dropped = 0;

  constructor(options: AuditLogOptions) {
    this.#options = options;
    this.#withScript = options.script !== false;
    if (options.registry !== undefined) this.registerMetrics(options.registry);
    // Only the record itself: no level, pid, hostname or pino timestamp (the line has `time`);
    // the level's place holds the schema version, so every line starts with it.
    const destination: DestinationStream = { write: (text: string) => this.#write(text) };
    this.#logger = pino(
      { base: null, timestamp: false, formatters: { level: () => ({ v: auditLineVersion }) } },
      destination,
    );
  }

  registerMetrics(registry: Registry): void {
    const counter =
      (registry.getSingleMetric(droppedMetric) as Counter | undefined) ??
      new Counter({
        name: droppedMetric,
        help: "Audit log lines lost to a write failure (unwritable file, full disk).",
        registers: [registry],
      });
    if (this.#counters.includes(counter)) return;
    if (this.dropped > 0) counter.inc(this.dropped);
    this.#counters.push(counter);
  }

  readonly record = (event: DccToolCallEvent): void => {
    try {
      const { v: _version, ...line } = auditLine(event, this.#withScript);
      this.#logger.info(line);
    } catch {
      this.#drop(1);
    }
  };

  /** Opens the file's stream; a failure (now or on a later write) turns the log off for `retryMs`. */
  async open(): Promise<void> {
    const { file } = this.#options;
    const maxBytes = this.#options.maxBytes ?? defaultMaxBytes;
    const maxFiles = this.#options.maxFiles ?? defaultMaxFiles;
    try {
      const stream = openAuditFile({ file, maxBytes, maxFiles, maxBufferedBytes });
      // pino flushes its destination synchronously when the process exits; a stream whose file
      // never opened (or failed) throws there, which would print a crash at every exit.
      const flushSync = stream.flushSync.bind(stream);
      stream.flushSync = () => {
        try {
          flushSync();
        } catch {
          // What it could not write is already counted as dropped, or was never accepted.
        }
      };
      // Events of a stream given up on (after a failure) no longer count.
      stream.on("write", (bytes: number) => {
        if (stream === this.#stream) this.#confirm(bytes);
      });
      stream.on("drop", () => {
        if (stream === this.#stream) this.#unqueueLast();
      });
      stream.on("error", (error: NodeJS.ErrnoException) => {
        if (stream === this.#stream) this.#fail(error);
      });
      if (this.#closed !== undefined) {
        stream.destroy();
        return;
      }
      this.#stream = stream;
      this.#failed = false;
    } catch (error) {
      this.#fail(error as NodeJS.ErrnoException);
    }
  }

  flush(timeoutMs = 5000): Promise<void> {
    if (this.#pending.length === 0) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(done, timeoutMs);
      function done(): void {
        clearTimeout(timer);
        resolve();
      }
      this.#waiters.push(done);
    });
  }

  close(): Promise<void> {
    this.#closed ??= (async () => {
      await this.flush();
      const stream = this.#stream;
      this.#stream = undefined;
      if (stream === undefined) return;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 5000);
        stream.once("close", () => {
          clearTimeout(timer);
          resolve();
        });
        try {
          stream.end();
        } catch {
          clearTimeout(timer);
          resolve();
        }
      });
    })();
    return this.#closed;
  }

  #write(text: string): void {
    if (this.#failed && this.#closed === undefined) this.#retry();
    const stream = this.#stream;
    if (this.#failed || stream === undefined || this.#closed !== undefined) {
      this.#drop(1);
      return;
    }
    this.#pending.push(Buffer.byteLength(text));
    stream.write(text);
  }

  /** The stream wrote `bytes`: the lines they complete are written. */
  #confirm(bytes: number): void {
    this.#confirmedBytes += bytes;
    while (this.#pending.length > 0 && this.#confirmedBytes >= (this.#pending[0] as number)) {
      this.#confirmedBytes -= this.#pending.shift() as number;
      this.written += 1;
      // Writing works (again): the next outage is worth a warning of its own.
      this.#warned = false;
    }
    this.#wakeIfIdle();
  }

  /** The stream refused the latest line (its buffer was full). */
  #unqueueLast(): void {
    this.#pending.pop();
    this.#drop(1);
    this.#wakeIfIdle();
  }

  /** After `retryMs`, opens the file again (a freed disk, a folder created): the next lines go there. */
  #retry(): void {
    if (this.#reopening || Date.now() - this.#failedAt < (this.#options.retryMs ?? 30_000)) return;
    this.#reopening = true;
    // The file opens asynchronously: the line that asked is dropped, the next ones go there.
    void this.open().finally(() => {
      this.#reopening = false;
    });
  }

  #fail(error: NodeJS.ErrnoException): void {
    this.#failedAt = Date.now();
    if (!this.#failed) {
      this.#failed = true;
      // Once per outage: a retry that fails again says nothing new.
      if (!this.#warned) this.#warn(error);
      this.#warned = true;
      try {
        this.#stream?.destroy();
      } catch {
        // Already broken.
      }
      this.#stream = undefined;
    }
    // Lines handed over but not confirmed are lost with the stream.
    this.#drop(this.#pending.length);
    this.#pending.length = 0;
    this.#confirmedBytes = 0;
    this.#wakeIfIdle();
  }

  #warn(error: NodeJS.ErrnoException): void {
    const warn =
      this.#options.onWarning ??
      ((message: string) => process.emitWarning(message, { code: "DCC_AUDIT_LOG" }));
    try {
      warn(
        `Audit log ${this.#options.file} cannot be written (${error.code ?? error.message}); audit lines are dropped and counted in ${droppedMetric} until it can be written again`,
      );
    } catch {
      // A warning that fails to print must not fail anything else.
    }
  }

  #drop(lines: number): void {
    if (lines === 0) return;
    this.dropped += lines;
    for (const counter of this.#counters) counter.inc(lines);
  }

  #wakeIfIdle(): void {
    if (this.#pending.length > 0) return;
    for (const wake of this.#waiters.splice(0)) wake();
  }
}
