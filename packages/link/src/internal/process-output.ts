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

  constructor(
    child: ChildProcess,
    maxChars: number,
    onOutput: ((text: string, stream: "stdout" | "stderr") => void) | undefined,
  ) {
    this.#maxChars = maxChars;
    for (const stream of ["stdout", "stderr"] as const) {
      const readable = child[stream];
      readable?.setEncoding("utf8");
      readable?.on("data", (text: string) => {
        this.#append(text);
        if (stream === "stdout") this.#scan(text);
        onOutput?.(text, stream);
      });
    }
  }

  /** The end of what the child wrote. */
  get tail(): string {
    return this.#tail;
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
