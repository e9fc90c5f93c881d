// Small in-memory adapters for the composition tests: real DccAdapter objects with a journal of
// their lifecycle, a command that waits for its signal, and one that throws.
import { DccApiCatalog } from "@dcc/catalog";
import type { CommandDefinition, DccAdapter, DccAdapterContext } from "@dcc/executor";
import {
  connectClient as connectTestClient,
  type Revision,
  type TestClient,
} from "@dcc/mcp-test-clients";

/** A test adapter and what it saw. */
export interface TestAdapter extends DccAdapter {
  /** Lifecycle and command events in order: `start`, `commands`, `catalog`, `wait`, `aborted`, `close`. */
  readonly events: string[];
  /** The context `start` received, once it ran. */
  context: DccAdapterContext | undefined;
}

/** Options of {@link createTestAdapter}. */
export interface TestAdapterOptions {
  /** Replaces the default start (which resolves at once). */
  start?: (context: DccAdapterContext) => Promise<void>;
}

/**
 * An adapter named `dccName` with the commands `hello` (returns `hello from <dccName>`),
 * `<dccName>Only` (exists on this adapter only), `wait` (settles only when its signal aborts) and
 * `boom` (throws code `BOOM`).
 */
export function createTestAdapter(dccName: string, options: TestAdapterOptions = {}): TestAdapter {
  const events: string[] = [];
  const commands: CommandDefinition[] = [
    { name: "hello", description: "Say hello", handler: () => `hello from ${dccName}` },
    {
      name: `${dccName}Only`,
      description: `A command only ${dccName} has`,
      handler: () => dccName,
    },
    {
      name: "wait",
      description: "Wait until the call is stopped",
      handler: (_args, { signal }) => {
        events.push("wait");
        return new Promise((_resolve, reject) => {
          signal.addEventListener("abort", () => {
            events.push("aborted");
            reject(new Error("stopped"));
          });
        });
      },
    },
    {
      name: "boom",
      description: "Fail",
      handler: () => {
        throw Object.assign(new Error("it broke"), { code: "BOOM" });
      },
    },
  ];
  const adapter: TestAdapter = {
    dccName,
    events,
    context: undefined,
    async start(context) {
      events.push("start");
      adapter.context = context;
      await options.start?.(context);
    },
    commands() {
      events.push("commands");
      return commands;
    },
    catalog() {
      events.push("catalog");
      return new DccApiCatalog(dccName, {
        catalogText: `hello - Say hello\n${dccName}Only - A command only ${dccName} has\nwait - Wait until stopped\nboom - Fail`,
      });
    },
    instructions: (tools) => `Use ${tools.search}, then ${tools.execute}, to drive ${dccName}.`,
    executeDescription: (tools) => `Run a ${dccName} script. Find commands with ${tools.search}.`,
    async close() {
      events.push("close");
    },
  };
  return adapter;
}

/** Connects an SDK client of `revision` over Streamable HTTP; the caller closes it. */
export async function connectClient(
  url: string,
  revision: Revision = "2025-11-25",
): Promise<TestClient> {
  return (await connectTestClient(revision, { kind: "http", url })).client;
}

/** Calls a tool and returns its structured content. */
export async function call(
  client: TestClient,
  name: string,
  args: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const result = await client.callTool({ name, arguments: args }, { timeout: 60_000 });
  return result.structuredContent as Record<string, unknown>;
}

/** Polls `predicate` every 5 ms until it is true; false after `ms`. */
export async function eventually(predicate: () => boolean, ms = 30_000): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (!predicate()) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  return true;
}
