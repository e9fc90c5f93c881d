import { createRequire } from "node:module";
import { type DestinationStream, pino } from "pino";
import { Counter, type Registry } from "prom-client";
import type { DccToolCallEvent } from "./dcc-tool-call-event.ts";
import { auditLine, auditLineVersion } from "./internal/audit-line.ts";

/** Options for {@link createAuditLog}. */
export interface AuditLogOptions {
  /**
   * The log file. With rotation (the default) pino-roll numbers it: `audit.jsonl` is written as
   * `audit.1.jsonl`, then `audit.2.jsonl`, …; with `maxBytes: 0` the file itself is written.
   * Missing folders are created.
   */
  file: string;
  /** Record each script's text beside its SHA-256. Default true. */
  script?: boolean;
  /** Size at which the current file is closed and the next one begun, in bytes; 0 turns rotation off. Default 100 MiB. */
  maxBytes?: number;
  /** Files kept, the current one included (2 or more); older ones are removed. Default 10. */
  maxFiles?: number;
  /** A registry to count dropped lines on (`dcc_audit_lines_dropped_total`), e.g. the server's `metrics`. */
  registry?: Registry;
  /** Told once when writing fails. Default `process.emitWarning`. */
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

/** The part of pino-roll's SonicBoom stream the audit log drives. */
interface FileStream {
  write(text: string): boolean;
  end(): void;
  destroy(): void;
  on(event: string, listener: (...args: never[]) => void): unknown;
  once(event: string, listener: () => void): unknown;
}

/** pino-roll (CommonJS, no types): builds a size-rotated SonicBoom stream. */
type PinoRoll = (options: {
  file: string;
  size: string;
  limit: { count: number; removeOtherLogFiles: boolean };
  mkdir: boolean;
  maxLength: number;
}) => Promise<FileStream>;
// Loaded with require so that its missing types need no ambient declaration in every consumer.
const pinoRoll = createRequire(import.meta.url)("pino-roll") as PinoRoll;

const droppedMetric = "dcc_audit_lines_dropped_total";
/** Most bytes waiting for the disk before lines are dropped instead of held in memory. */
const maxBufferedBytes = 16 * 1024 * 1024;

/**
 * Opens an audit log: one JSON line per tool call (schema in the README, with a version field
 * `v`), written through pino to a file rotated by size (pino-roll), so it stays bounded. A write
 * failure (unwritable path, full disk) never fails or delays a call: it is reported once through
 * `onWarning`, and lost lines are counted. Never throws for a bad path: it warns and drops.
 */
export async function createAuditLog(options: AuditLogOptions): Promise<AuditLog> {
  const writer = new AuditWriter(options);
  await writer.open();
  return writer;
}

class AuditWriter implements AuditLog {
  readonly #options: AuditLogOptions;
  readonly #withScript: boolean;
  readonly #counters: Counter[] = [];
  readonly #logger;
  #stream: FileStream | undefined;
  #failed = false;
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

  async open(): Promise<void> {
    const { file } = this.#options;
    const maxBytes = this.#options.maxBytes ?? 100 * 1024 * 1024;
    const maxFiles = this.#options.maxFiles ?? 10;
    try {
      if (!Number.isInteger(maxBytes) || maxBytes < 0)
        throw new Error("maxBytes must be 0 or more");
      if (!Number.isInteger(maxFiles) || maxFiles < 2)
        throw new Error("maxFiles must be 2 or more");
      const stream = (maxBytes === 0
        ? pino.destination({ dest: file, mkdir: true, sync: false, maxLength: maxBufferedBytes })
        : await pinoRoll({
            file,
            size: `${maxBytes}b`,
            limit: { count: maxFiles - 1, removeOtherLogFiles: true },
            mkdir: true,
            maxLength: maxBufferedBytes,
          })) as unknown as FileStream;
      stream.on("write", (bytes: number) => this.#confirm(bytes));
      stream.on("drop", () => this.#unqueueLast());
      stream.on("error", (error: NodeJS.ErrnoException) => this.#fail(error));
      this.#stream = stream;
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
    }
    this.#wakeIfIdle();
  }

  /** The stream refused the latest line (its buffer was full). */
  #unqueueLast(): void {
    this.#pending.pop();
    this.#drop(1);
    this.#wakeIfIdle();
  }

  #fail(error: NodeJS.ErrnoException): void {
    if (!this.#failed) {
      this.#failed = true;
      const warn =
        this.#options.onWarning ??
        ((message: string) => process.emitWarning(message, { code: "DCC_AUDIT_LOG" }));
      try {
        warn(
          `Audit log ${this.#options.file} cannot be written (${error.code ?? error.message}); audit lines are dropped and counted in ${droppedMetric}`,
        );
      } catch {
        // A warning that fails to print must not fail anything else.
      }
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
