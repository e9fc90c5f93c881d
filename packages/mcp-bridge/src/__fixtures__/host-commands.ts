// Host commands the tests dispatch into, with a journal of what ran and what each handler saw of
// the ambient cancel context.
import { checkCancelled, currentJobId } from "@dcc/cancel";

/** What the host commands recorded. */
export interface HostJournal {
  ticks: number;
  /** Job ids seen by handlers through currentJobId(). */
  jobIds: (string | undefined)[];
  /** Set when the "block" command saw its signal abort or checkCancelled() throw. */
  blockSawCancel: boolean;
  /** Names of commands in the order they started ("count" is left out: it runs in loops). */
  calls: string[];
  /** Calls of "count" per `key` argument, so concurrent scripts can be told apart. */
  counted: Map<string, number>;
}

/** A command definition in the executor's shape. */
export interface HostCommand {
  name: string;
  description: string;
  signature: string;
  /** See `CommandDefinition.readOnly`. */
  readOnly?: boolean;
  handler(args: unknown, context: { signal: AbortSignal; command: string }): unknown;
}

/** The test commands and their journal. */
export function createHostCommands(): { commands: HostCommand[]; journal: HostJournal } {
  const journal: HostJournal = {
    ticks: 0,
    jobIds: [],
    blockSawCancel: false,
    calls: [],
    counted: new Map(),
  };
  const commands: HostCommand[] = [
    {
      name: "polySphere",
      description: "Create a polygon sphere",
      signature: "polySphere(flags?: { name?: string; radius?: number }): string[]",
      handler: (args) => {
        journal.calls.push("polySphere");
        const name = (args as { name?: string } | undefined)?.name ?? "pSphere1";
        return [name, `${name}Shape`];
      },
    },
    {
      name: "tick",
      description: "Count one tick",
      signature: "tick(): number",
      // The tests' probes: counting calls is their bookkeeping, no scene change, so concurrent
      // scripts' probes run between each other's commands (none takes the host's hold).
      readOnly: true,
      handler: () => {
        journal.calls.push("tick");
        journal.ticks += 1;
        return journal.ticks;
      },
    },
    {
      name: "count",
      description: "Count one call under a key",
      signature: "count(flags: { key: string }): number",
      readOnly: true,
      handler: (args) => {
        const key = String((args as { key?: unknown } | undefined)?.key ?? "");
        const next = (journal.counted.get(key) ?? 0) + 1;
        journal.counted.set(key, next);
        return next;
      },
    },
    {
      name: "whoami",
      description: "Report the job id the host sees",
      signature: "whoami(): string | null",
      readOnly: true,
      handler: () => {
        journal.calls.push("whoami");
        const id = currentJobId();
        journal.jobIds.push(id);
        return id ?? null;
      },
    },
    {
      name: "block",
      description: "Wait until cancelled (or 10 s)",
      signature: "block(): void",
      handler: async (_args, context) => {
        journal.calls.push("block");
        const deadline = Date.now() + 10_000;
        while (Date.now() < deadline) {
          try {
            checkCancelled();
          } catch (error) {
            journal.blockSawCancel = true;
            throw error;
          }
          if (context.signal.aborted) {
            journal.blockSawCancel = true;
            throw new Error("aborted");
          }
          await new Promise((resolve) => setTimeout(resolve, 2));
        }
        return "timed out";
      },
    },
    {
      name: "fail",
      description: "Always fails with NO_OBJECT",
      signature: "fail(): never",
      handler: () => {
        journal.calls.push("fail");
        throw Object.assign(new Error("No object matches name: foo"), { code: "NO_OBJECT" });
      },
    },
  ];
  return { commands, journal };
}
