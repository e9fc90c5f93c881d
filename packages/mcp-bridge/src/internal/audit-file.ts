// The audit log's file: the file the operator named is always the live one, so `tail -F`,
// logrotate and log shippers pointed at it see every line. Rotation is by size, in logrotate's
// numbering: at the bound the live file becomes `<name>.1<ext>`, older ones move up by one
// (`.1` → `.2` …), those past the count are removed, and a new live file is begun. Writes are
// asynchronous (pino's SonicBoom); the renames are a few synchronous calls once per rotation.
import { readdirSync, renameSync, statSync, unlinkSync } from "node:fs";
import { basename, dirname, extname } from "node:path";
import { pino } from "pino";

/** The part of pino's SonicBoom stream the audit log drives. */
export interface AuditFileStream {
  write(text: string): boolean;
  end(): void;
  destroy(): void;
  flushSync(): void;
  on(event: string, listener: (...args: never[]) => void): unknown;
  once(event: string, listener: (...args: never[]) => void): unknown;
}

/** Options for {@link openAuditFile}. */
export interface AuditFileOptions {
  /** The live file. Missing folders are created. */
  file: string;
  /** Size past which no more lines go into the live file before it is rotated; 0: never rotate. */
  maxBytes: number;
  /** Files kept, the live one included (at least 2). */
  maxFiles: number;
  /** Most bytes waiting for the disk; lines beyond are dropped (the stream emits `drop`). */
  maxBufferedBytes: number;
}

/** The name of the `index`-th rotated file of `file`: `audit.jsonl` → `audit.1.jsonl`. */
export function rotatedName(file: string, index: number): string {
  const extension = extname(basename(file));
  return `${file.slice(0, file.length - extension.length)}.${index}${extension}`;
}

/**
 * Opens `file` for appending as a stream that rotates it by size. The file opens asynchronously
 * (lines written meanwhile wait for it); a file that cannot be opened, or a rotation that fails (a
 * rename refused), is the stream's `error`. A line that would take the live file past `maxBytes`
 * begins a new one, so a file passes the bound only by a single line larger than it, or by what
 * was still waiting for the disk when it rotated.
 */
export function openAuditFile(options: AuditFileOptions): AuditFileStream {
  const { file, maxBytes, maxFiles } = options;
  const stream = pino.destination({
    dest: file,
    mkdir: true,
    append: true,
    sync: false,
    maxLength: options.maxBufferedBytes,
  }) as unknown as AuditFileStream & {
    reopen(): void;
    emit(event: string, error: unknown): boolean;
  };
  if (maxBytes === 0) return stream;
  let size = sizeOf(file);
  // Until the live file is open, lines queue for it and no rotation starts.
  let reopening = true;
  stream.once("ready", () => {
    reopening = false;
  });
  const write = stream.write.bind(stream);
  stream.write = (text: string): boolean => {
    const bytes = Buffer.byteLength(text);
    if (!reopening && size > 0 && size + bytes > maxBytes) {
      try {
        shiftRotated(file, maxFiles);
      } catch (error) {
        stream.emit("error", error);
        return false;
      }
      size = 0;
      reopening = true;
      stream.once("ready", () => {
        reopening = false;
      });
      stream.reopen();
    }
    size += bytes;
    return write(text);
  };
  return stream;
}

function sizeOf(file: string): number {
  try {
    return statSync(file).size;
  } catch {
    return 0;
  }
}

/**
 * Moves the live file to `.1`, each rotated file up by one, and removes those that would pass
 * `maxFiles - 1` rotated files (an earlier run's with higher numbers too).
 */
function shiftRotated(file: string, maxFiles: number): void {
  const keep = maxFiles - 1;
  const name = basename(file);
  const extension = extname(name);
  const stem = name.slice(0, name.length - extension.length);
  const numbers: number[] = [];
  for (const entry of readdirSync(dirname(file))) {
    if (!entry.startsWith(`${stem}.`) || !entry.endsWith(extension)) continue;
    const middle = entry.slice(stem.length + 1, entry.length - extension.length);
    if (/^[1-9]\d*$/.test(middle)) numbers.push(Number(middle));
  }
  numbers.sort((a, b) => b - a);
  for (const index of numbers) {
    if (index >= keep) unlinkSync(rotatedName(file, index));
    else renameSync(rotatedName(file, index), rotatedName(file, index + 1));
  }
  renameSync(file, rotatedName(file, 1));
}
