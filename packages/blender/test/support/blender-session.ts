import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  createAdapterExecutor,
  type DccApiExecutor,
  type DccHostStatus,
  type ExecuteOptions,
} from "@dcc/executor";
import {
  type BlenderAdapter,
  type BlenderAdapterOptions,
  createBlenderAdapter,
} from "../../src/index.ts";
import { testSandbox } from "./bwrap-available.ts";

/** A started Blender adapter, its executor and its data folder; `close()` ends all three. */
export interface BlenderSession {
  adapter: BlenderAdapter;
  executor: DccApiExecutor;
  dataDir: string;
  statuses: DccHostStatus[];
  /** Runs a script with a generous timeout (the machine may be loaded). */
  run(code: string, options?: ExecuteOptions): ReturnType<DccApiExecutor["execute"]>;
  close(): Promise<void>;
}

/** Launches a Blender adapter on a fresh data folder. */
export async function startBlenderSession(
  options: Partial<BlenderAdapterOptions> = {},
): Promise<BlenderSession> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), "dcc-blender-data-"));
  const adapter = createBlenderAdapter({
    ...(testSandbox === undefined ? {} : { sandbox: testSandbox }),
    ...options,
    dataDir,
  });
  const statuses: DccHostStatus[] = [];
  try {
    await adapter.start?.({
      signal: AbortSignal.timeout(180_000),
      reportHost: (status) => statuses.push(status),
    });
  } catch (error) {
    await adapter.close?.();
    if (options.dataDir === undefined) rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
  const executor = createAdapterExecutor(adapter, { limits: { maxTimeoutSecs: 300 } });
  return {
    adapter,
    executor,
    dataDir: adapter.dataDir,
    statuses,
    run: (code, runOptions = {}) =>
      executor.execute(code, { timeoutSecs: runOptions.timeoutSecs ?? 120, ...runOptions }),
    async close() {
      await executor.close();
      await adapter.close?.();
      if (options.dataDir === undefined) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The output of a script that must have succeeded, typed as the test expects it. */
export function outputOf<T>(result: Awaited<ReturnType<DccApiExecutor["execute"]>>): T {
  if (!result.success) throw new Error(`the script failed: ${result.errorCode}: ${result.error}`);
  return result.output as T;
}

/** Whether a script's dispatch was refused because a stopped command still held Blender. */
export function busy(result: Awaited<ReturnType<DccApiExecutor["execute"]>>): boolean {
  return result.success && (result.output as { code?: unknown } | null)?.code === "HOST_BUSY";
}

/**
 * The adapter as seen by an executor that notes each command reaching the main thread: reads a
 * script makes on the sandbox's own connection never show up in `onMain`.
 */
export function watchMainThread(adapter: BlenderAdapter): {
  watched: BlenderAdapter;
  onMain: string[];
} {
  const onMain: string[] = [];
  const watched = Object.create(adapter, {
    commands: {
      value: () =>
        adapter.commands().map((command) => ({
          ...command,
          handler: (args: unknown, context: Parameters<typeof command.handler>[1]) => {
            onMain.push(command.name);
            return command.handler(args, context);
          },
        })),
    },
  }) as BlenderAdapter;
  return { watched, onMain };
}
