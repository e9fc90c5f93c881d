// The adapter attached to a stand-in interactive Maya running the plug-in: scripts run on
// Maya's main thread; after the plug-in is unloaded and loaded again (a new token), the
// adapter reattaches by itself.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createAdapterExecutor, type DccApiExecutor, type DccHostStatus } from "@dcc/executor";
import type { LinkedAdapter } from "@dcc/linked-adapter";
import { waitFor } from "@dcc/test-support";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLinkedMayaAdapter } from "../src/index.ts";
import { type StandInGui, startStandInGui } from "./support/stand-in-gui.ts";
import { commandsData, pluginPath } from "./support/stand-in-paths.ts";
import { type StandInScene, startStandInScene } from "./support/stand-in-scene.ts";

let root: string;
let scene: StandInScene;
let maya: StandInGui;
let adapter: LinkedAdapter;
let executor: DccApiExecutor;
const statuses: DccHostStatus[] = [];

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), "dcc-maya-attach-"));
  scene = await startStandInScene({ dataDir: join(root, "data") });
  maya = await startStandInGui({
    DCC_MAYA_DATA_DIR: join(root, "data"),
    DCC_MAYA_LINK_DIR: join(root, "link"),
    DCC_MAYA_STAND_IN_SCENE: scene.url,
    DCC_MAYA_STAND_IN_COMMANDS: commandsData,
  });
  await maya.command(`load ${pluginPath}`);
  adapter = createLinkedMayaAdapter({
    attach: { connectionFile: join(root, "link", "connection.json"), retryMs: 100 },
  });
  await adapter.start?.({
    signal: AbortSignal.timeout(120_000),
    reportHost: (status) => statuses.push(status),
  });
  executor = createAdapterExecutor(adapter);
});

afterAll(async () => {
  await executor?.close();
  await adapter?.close?.();
  await maya?.close();
  await scene?.close();
  rmSync(root, { recursive: true, force: true });
});

describe("attached to the user's Maya through the plug-in", () => {
  it("runs the seed's pattern on Maya's main thread", async () => {
    const result = await executor.execute(
      'for (let i = 0; i < 3; i++) dispatch("polySphere", { position: [i, 0, 0] }); return dispatch("ls", { type: "transform" });',
      { timeoutSecs: 120 },
    );
    expect(result).toMatchObject({ success: true, output: ["pSphere1", "pSphere2", "pSphere3"] });
    expect(adapter.pid).toBe(maya.child.pid);
  });

  it("applies the attached Maya's data folder to the TypeScript wall", async () => {
    const result = await executor.execute(
      'try { dispatch("file", { args: ["/etc/hosts"], open: true }); } catch (e) { return e.data; }',
      { timeoutSecs: 120 },
    );
    expect(result).toMatchObject({ success: true, output: { rule: "data-folder" } });
  });

  it("reattaches after the plug-in is unloaded and loaded again, keeping Maya's scene", async () => {
    const launches = adapter.launches;
    await maya.command("unload dcc_maya_link");
    await waitFor("the adapter to see Maya go", () =>
      statuses.some((status) => status.state === "unavailable"),
    );
    await maya.command(`load ${pluginPath}`);
    await waitFor("the adapter to reattach", () => adapter.launches > launches, 60_000);
    const result = await executor.execute(
      'return dispatch("ls", { args: ["pSphere*"], type: "transform" });',
      {
        timeoutSecs: 120,
      },
    );
    expect(result).toMatchObject({ success: true, output: ["pSphere1", "pSphere2", "pSphere3"] });
  });
});
