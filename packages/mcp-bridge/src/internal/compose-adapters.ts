// Turns the adapters of a composed server into executor registrations: names and limits checked
// before anything starts, every adapter started side by side, then the texts the agent reads.
import { type AdapterApprovalOptions, approvalRuleNames, type DccAdapter } from "@dcc/executor";
import type { DccCompositionOptions } from "../dcc-composition-options.ts";
import type { DccServerOptions, ExecutorRegistration } from "../dcc-server-options.ts";
import { JobManager } from "../job-manager.ts";
import { McpBridgeError } from "../mcp-bridge-error.ts";
import { AdapterSlot } from "./adapter-slot.ts";
import { buildMcpServer, resolveRegistrations } from "./build-mcp-server.ts";

/** The started adapters and what the MCP server is built from. */
export interface Composition {
  readonly slots: readonly AdapterSlot[];
  /** Options for the HTTP handler or stdio server: the executors and the server texts. */
  readonly serverOptions: DccServerOptions;
  /** Ends every executor's sandbox pool, then closes every adapter. Never rejects. */
  close(): Promise<void>;
}

/**
 * Checks the configuration, starts every adapter and builds their executors. A configuration
 * error throws before any adapter starts; an adapter that fails only marks itself.
 * @throws {@link McpBridgeError} `INVALID_CONFIG` for missing, duplicate or invalid names, or an
 *   unknown approval rule,
 *   `START_FAILED` when no adapter could start; `DccMcpError` `INVALID_LIMITS` for bad limits.
 */
export async function composeAdapters(options: DccCompositionOptions): Promise<Composition> {
  const {
    adapters: _adapters,
    limits: _limits,
    scriptsDir: _scriptsDir,
    startTimeoutMs,
    shutdownGraceMs: _shutdownGraceMs,
    instructions,
    approval: _approval,
    ...common
  } = options;
  checkApproval(options.approval);
  const slots = createSlots(options);
  // Registering the tools once on a scratch server applies the bridge's own name rules now,
  // not at the first session.
  buildMcpServer(
    {},
    resolveRegistrations({ executors: slots.map((slot) => registration(slot, false)) }),
    new JobManager(),
  );

  await Promise.all(slots.map((slot) => slot.start(startTimeoutMs ?? 60_000)));
  const close = async (): Promise<void> => {
    await Promise.allSettled(slots.map((slot) => slot.closeExecutor()));
    await Promise.allSettled(slots.map((slot) => slot.closeAdapter()));
  };
  if (slots.every((slot) => slot.failed)) {
    const reasons = slots.map((slot) => (slot.status as { reason: string }).reason);
    await close();
    throw new McpBridgeError({
      code: "START_FAILED",
      message:
        slots.length === 1 ? (reasons[0] as string) : `No adapter started: ${reasons.join("; ")}`,
    });
  }
  const text = withApprovalNote(instructions ?? combinedInstructions(slots), options.approval);
  return {
    slots,
    serverOptions: {
      ...common,
      ...(text === undefined ? {} : { instructions: text }),
      executors: slots.map((slot) => registration(slot, true)),
    },
    close,
  };
}

function createSlots(options: DccCompositionOptions): AdapterSlot[] {
  const entries = options.adapters.map((entry) =>
    "adapter" in entry ? entry : { adapter: entry as DccAdapter },
  );
  if (entries.length === 0) {
    throw new McpBridgeError({ code: "INVALID_CONFIG", message: "Pass at least one adapter" });
  }
  const several = entries.length > 1;
  const names = new Set<string>();
  return entries.map((entry) => {
    const name = entry.name ?? entry.adapter.dccName;
    if (typeof name !== "string" || name === "") {
      throw new McpBridgeError({ code: "INVALID_CONFIG", message: "An adapter needs a dccName" });
    }
    if (names.has(name)) {
      throw new McpBridgeError({
        code: "INVALID_CONFIG",
        message: `Two adapters are named ${name}; give one of them its own name`,
      });
    }
    names.add(name);
    const prefix = several ? name : "dcc";
    const scriptsDir = entry.scriptsDir ?? options.scriptsDir;
    return new AdapterSlot({
      adapter: entry.adapter,
      name,
      tools: {
        search: entry.searchToolName ?? `${prefix}_search`,
        execute: entry.executeToolName ?? `${prefix}_execute`,
      },
      limits: { ...options.limits, ...entry.limits },
      scriptsDir,
      approval: options.approval,
    });
  });
}

function registration(slot: AdapterSlot, withTexts: boolean): ExecutorRegistration {
  const executeDescription = withTexts ? slot.executeDescription() : undefined;
  return {
    executor: slot,
    searchToolName: slot.tools.search,
    executeToolName: slot.tools.execute,
    ...(executeDescription === undefined ? {} : { executeDescription }),
  };
}

/** One adapter's own instructions; with several, the pairs and then each adapter's text. */
function combinedInstructions(slots: readonly AdapterSlot[]): string | undefined {
  if (slots.length === 1) return slots[0]?.instructions();
  const lines = [
    `This server drives ${slots.length} DCCs. Each has its own pair of tools, catalog and jobs; a script runs in one DCC only:`,
    ...slots.map((slot) => {
      const status = slot.status;
      const note = status.state === "failed" ? ` (unavailable: ${status.reason})` : "";
      return `- ${slot.name}: ${slot.tools.search}, ${slot.tools.execute}${note}`;
    }),
  ];
  for (const slot of slots) {
    const text = slot.instructions();
    if (text !== undefined) lines.push("", `${slot.name}:`, text);
  }
  return lines.join("\n");
}

/**
 * Tells the agent which commands wait for a person (in the instructions, not in the tool texts,
 * which every call pays for), and that a denial is the person's answer, not an error to work
 * around.
 */
function withApprovalNote(
  text: string | undefined,
  approval: AdapterApprovalOptions | undefined,
): string | undefined {
  if (approval === undefined || approval.ask.length === 0) return text;
  const note = `Approval: commands under the rules ${approval.ask.join(", ")} wait until the user approves them; one answer covers the rest of that script for the rule. A refused command throws APPROVAL_DENIED (nothing of it ran): respect it, do not try another way to do the same.`;
  return text === undefined ? note : `${text}\n\n${note}`;
}

/** Fails fast on approval settings every adapter would refuse at start. */
function checkApproval(approval: AdapterApprovalOptions | undefined): void {
  if (approval === undefined) return;
  if (!Array.isArray(approval.ask)) {
    throw new McpBridgeError({
      code: "INVALID_CONFIG",
      message: "approval.ask must be a list of rule names",
    });
  }
  const known = new Set<string>([
    ...Object.values(approvalRuleNames),
    ...(approval.rules ?? []).map((rule) => rule.name),
  ]);
  const unknown = approval.ask.filter((name) => !known.has(name));
  if (unknown.length > 0) {
    throw new McpBridgeError({
      code: "INVALID_CONFIG",
      message: `Unknown approval rule${unknown.length === 1 ? "" : "s"} ${unknown.map((name) => `'${name}'`).join(", ")}: use ${[...known].join(", ")}`,
    });
  }
  const timeoutSecs = approval.timeoutSecs;
  if (
    timeoutSecs !== undefined &&
    (typeof timeoutSecs !== "number" ||
      !Number.isFinite(timeoutSecs) ||
      timeoutSecs <= 0 ||
      timeoutSecs > 86_400)
  ) {
    throw new McpBridgeError({
      code: "INVALID_CONFIG",
      message: `approval.timeoutSecs must be a number of seconds above 0 and at most 86400 (a day), not ${String(timeoutSecs)}`,
    });
  }
}
