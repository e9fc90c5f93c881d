// The userSetup.py way, without the plug-in: a stand-in interactive Maya runs the shipped
// python/user-setup/userSetup.py at start-up, the link starts once Maya is idle, and the adapter
// attaches to it.
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createAdapterExecutor } from "@dcc/executor";
import { waitFor } from "@dcc/test-support";
import { expect, it } from "vitest";
import { createLinkedMayaAdapter } from "../src/index.ts";
import { startStandInGui } from "./support/stand-in-gui.ts";
import { commandsData } from "./support/stand-in-paths.ts";
import { startStandInScene } from "./support/stand-in-scene.ts";

it("serves the link from userSetup.py, and an attached adapter runs scripts on it", async () => {
  const root = mkdtempSync(join(tmpdir(), "dcc-maya-user-setup-"));
  const scene = await startStandInScene({ dataDir: join(root, "data") });
  const maya = await startStandInGui({
    DCC_MAYA_STAND_IN_USER_SETUP: fileURLToPath(
      new URL("../python/user-setup/userSetup.py", import.meta.url),
    ),
    DCC_MAYA_PYTHON: fileURLToPath(new URL("../python", import.meta.url)),
    DCC_MAYA_DATA_DIR: join(root, "data"),
    DCC_MAYA_LINK_DIR: join(root, "link"),
    DCC_MAYA_STAND_IN_SCENE: scene.url,
    DCC_MAYA_STAND_IN_COMMANDS: commandsData,
  });
  const connectionFile = join(root, "link", "connection.json");
  const adapter = createLinkedMayaAdapter({ attach: { connectionFile } });
  const executor = createAdapterExecutor(adapter);
  try {
    await waitFor("userSetup.py to start the link", () => existsSync(connectionFile));
    await adapter.start?.({ signal: AbortSignal.timeout(120_000), reportHost: () => {} });
    const result = await executor.execute(
      'dispatch("polyCube", { name: "fromUserSetup" }); return dispatch("ls", { type: "transform" });',
      { timeoutSecs: 120 },
    );
    expect(result).toMatchObject({ success: true, output: ["fromUserSetup"] });
  } finally {
    await executor.close();
    await adapter.close?.();
    await maya.close();
    await scene.close();
  }
  expect(existsSync(connectionFile)).toBe(false);
  rmSync(root, { recursive: true, force: true });
});
