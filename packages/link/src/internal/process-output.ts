import type { ChildProcess } from "node:child_process";

/**
 * Drains a child's stdout and stderr for its whole life (a full pipe would block the host),
 * keeps the last `maxChars` characters for error messages, and finds the ready line.
 */
export class ProcessOutput {
  readonly #maxChars: number;
  #tail = "";
  #partial = "";
  #ready: { prefix: string; found(rest: string): void } | undefined;
  readonly #ended: Promise<unknown>;

  constructor(
    child: ChildProcess,
    maxChars: number,
    onOutput: ((text: string, stream: "stdout" | "stderr") => void) | undefined,
  ) {
    this.#maxChars = maxChars;
    const ends: Promise<void>[] = [];
    for (const stream of ["stdout", "stderr"] as const) {
      const readable = child[stream];
      readable?.setEncoding("utf8");
      readable?.on("data", (text: string) => {
        this.#append(text);
        if (stream === "stdout") this.#scan(text);
        onOutput?.(text, stream);
      });
      if (readable) ends.push(new Promise((resolve) => readable.once("close", () => resolve())));
    }
    this.#ended = Promise.all(ends);
  }

  /**
   * Resolves once both streams are read to their end (the last words of a child that exited
   * can arrive after its exit), or after `boundMs`: a grandchild may hold them open.
   */
  async drained(boundMs: number): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      this.#ended,
      new Promise((resolve) => {
        timer = setTimeout(resolve, boundMs);
      }),
    ]);
    clearTimeout(timer);
  }

  /** The end of what the child wrote. */
  get tail(): string {
    return this.#tail;
  }

  /**
   * The last `maxLines` non-empty lines of what the child wrote, at most `maxChars` characters
   * (a line cut at the front starts with `…`), for an error message; empty when it wrote nothing.
   */
  lastLines(maxLines = 20, maxChars = 2000): string {
    const lines = this.#tail
      .split("\n")
      .map((line) => line.trimEnd())
      .filter((line) => line !== "")
      .slice(-maxLines);
    let text = lines.join("\n");
    if (text.length > maxChars) text = `…${text.slice(-(maxChars - 1))}`;
    return text;
  }

  /** Resolves with the rest of the first stdout line that starts with `prefix` + a space. */
  readyLine(prefix: string): Promise<string> {
    return new Promise((found) => {
      this.#ready = { prefix: `${prefix} `, found };
    });
  }

  #append(text: string): void {
    this.#tail = (this.#tail + text).slice(-this.#maxChars);
  }

  #scan(text: string): void {
    if (this.#ready === undefined) return;
    const lines = (this.#partial + text).split("\n");
    this.#partial = (lines.pop() ?? "").slice(-65_536);
    for (const line of lines) {
      const clean = line.endsWith("\r") ? line.slice(0, -1) : line;
      const ready = this.#ready;
      if (ready !== undefined && clean.startsWith(ready.prefix)) {
        this.#ready = undefined;
        this.#partial = "";
        ready.found(clean.slice(ready.prefix.length));
        return;
      }
    }
  }
}
