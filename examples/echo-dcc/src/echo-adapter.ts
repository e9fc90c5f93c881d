import { checkCancelled } from "@dcc/cancel";
import { DccApiCatalog } from "@dcc/catalog";
import type { CommandDefinition, DccAdapter, DccToolNames } from "@dcc/executor";
import { captureLines, maxCaptureSide } from "./echo-capture.ts";

/** The echo DCC: an adapter whose host is a list of lines in memory. */
export interface EchoAdapter extends DccAdapter {
  /** Every line `say` added, in order. */
  readonly lines: readonly string[];
}

/**
 * A small in-memory DCC, written only against the published surfaces: four commands, a catalog,
 * instructions, and a lifecycle. It shows what every adapter supplies; a real DCC would talk to its
 * process in `start`, the handlers and `close`.
 */
export function createEchoAdapter(): EchoAdapter {
  const lines: string[] = [];
  const commands: CommandDefinition[] = [
    {
      name: "echo",
      signature: "echo(value: unknown): unknown",
      description: "Return the value it was given",
      handler: (args) => args,
    },
    {
      name: "say",
      signature: "say(flags: { text: string }): number",
      description: "Add a line of text to the echo log; returns how many lines it holds",
      argsSchema: {
        type: "object",
        properties: { text: { type: "string" } },
        required: ["text"],
      },
      handler: (args) => lines.push((args as { text: string }).text),
    },
    {
      name: "history",
      signature: "history(): string[]",
      description: "List every line said so far",
      handler: () => [...lines],
    },
    {
      name: "capture",
      signature: `capture(flags?: { width?: number; height?: number }): { $image: string; width: number; height: number }`,
      description: `Capture an image (screenshot, PNG) of the echo log, one band per line; each side 1 to ${maxCaptureSide} pixels, default 128. Return it from the script to see it`,
      argsSchema: {
        type: "object",
        properties: {
          width: { type: "integer", minimum: 1, maximum: maxCaptureSide },
          height: { type: "integer", minimum: 1, maximum: maxCaptureSide },
        },
        additionalProperties: false,
      },
      handler: (args) => {
        const { width = 128, height = 128 } = (args ?? {}) as { width?: number; height?: number };
        return captureLines(lines, width, height);
      },
    },
    {
      name: "wait",
      signature: "wait(ms: number): number",
      description: "Answer after ms milliseconds, as a command sent to a DCC process would",
      // Asynchronous, and stopped by the call's signal when the script is cancelled.
      handler: (args, { signal }) =>
        new Promise((resolve, reject) => {
          checkCancelled();
          const ms = typeof args === "number" ? args : 0;
          const timer = setTimeout(() => resolve(ms), ms);
          signal.addEventListener("abort", () => {
            clearTimeout(timer);
            reject(Object.assign(new Error("wait was cancelled"), { code: "CANCELLED" }));
          });
        }),
    },
  ];
  return {
    dccName: "echo",
    lines,
    async start() {
      lines.length = 0; // a real adapter launches or connects to its DCC here
    },
    commands: () => commands,
    // Only what search shows: the handlers and schemas stay out of the records.
    catalog: () =>
      new DccApiCatalog("echo", {
        commands: commands.map(({ name, signature, description }) => ({
          name,
          ...(signature === undefined ? {} : { signature }),
          ...(description === undefined ? {} : { description }),
        })),
      }),
    instructions: (tools: DccToolNames) =>
      `An echo DCC: its scene is a log of lines. Find commands with ${tools.search}; run scripts with ${tools.execute}.`,
    async close() {
      lines.length = 0;
    },
  };
}
