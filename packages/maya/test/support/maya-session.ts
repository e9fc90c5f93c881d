// A linked Maya adapter over the stand-in `mayapy`, with its executor, data folder and the
// scene server behind the stand-in; `close()` ends all of them.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  createAdapterExecutor,
  type DccApiExecutor,
  type DccHostStatus,
  type ExecuteOptions,
} from "@dcc/executor";
import type { LinkedAdapter } from "@dcc/linked-adapter";
import { createLinkedMayaAdapter, type LinkedMayaAdapterOptions } from "../../src/index.ts";
import { commandsData, standInMayapy } from "./stand-in-paths.ts";
import { type StandInScene, startStandInScene } from "./stand-in-scene.ts";

/** A started adapter over the stand-in. */
export interface MayaSession {
  adapter: LinkedAdapter;
  executor: DccApiExecutor;
  scene: StandInScene;
  dataDir: string;
  statuses: DccHostStatus[];
  /** What the stand-in Maya printed. */
  output(): string;
  run(code: string, options?: ExecuteOptions): ReturnType<DccApiExecutor["execute"]>;
  close(): Promise<void>;
}

/** Launches the adapter on the stand-in `mayapy` with a fresh data folder and scene. */
export async function startMayaSession(
  options: Partial<LinkedMayaAdapterOptions> = {},
): Promise<MayaSession> {
  const dataDir = mkdtempSync(join(tmpdir(), "dcc-maya-data-"));
  const scene = await startStandInScene({ dataDir });
  let printed = "";
  const adapter = createLinkedMayaAdapter({
    dataDir,
    mayapy: standInMayapy,
    // The stand-in is python3 through a version manager's shim, talking to a scene server on
    // loopback TCP: the OS sandbox would hide both.
    sandbox: "off",
    env: {
      DCC_MAYA_STAND_IN_SCENE: scene.url,
      DCC_MAYA_STAND_IN_COMMANDS: commandsData,
      DCC_MAYA_STAND_IN_FAULTS: "1",
    },
    onOutput: (text) => {
      printed += text;
    },
    ...options,
  });
  const statuses: DccHostStatus[] = [];
  const cleanup = async (): Promise<void> => {
    await adapter.close?.();
    await scene.close();
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await adapter.start?.({
      signal: AbortSignal.timeout(180_000),
      reportHost: (status) => statuses.push(status),
    });
  } catch (error) {
    await cleanup();
    throw error;
  }
  const executor = createAdapterExecutor(adapter, { limits: { maxTimeoutSecs: 300 } });
  return {
    adapter,
    executor,
    scene,
    dataDir,
    statuses,
    output: () => printed,
    run: (code, runOptions = {}) =>
      executor.execute(code, { timeoutSecs: runOptions.timeoutSecs ?? 120, ...runOptions }),
    async close() {
      await executor.close();
      await cleanup();
    },
  };
}
