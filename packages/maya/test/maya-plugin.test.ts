// The plug-in in a stand-in interactive Maya: the link is served from a socket thread, each
// call runs on the main thread through maya.utils.executeInMainThreadWithResult (the stand-in's
// cmds raise anywhere else), and unloading the plug-in stops the link and removes its files;
// loading it again serves a new connection a client can reattach to.
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { LinkClient } from "@dcc/link";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type StandInGui, startStandInGui } from "./support/stand-in-gui.ts";
import { commandsData, pluginPath } from "./support/stand-in-paths.ts";
import { type StandInScene, startStandInScene } from "./support/stand-in-scene.ts";

let root: string;
let scene: StandInScene;
let maya: StandInGui;
const linkDir = (): string => join(root, "link");
const connectionFile = (): string => join(linkDir(), "connection.json");

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), "dcc-maya-plugin-"));
  scene = await startStandInScene({ dataDir: join(root, "data") });
  maya = await startStandInGui({
    DCC_MAYA_DATA_DIR: join(root, "data"),
    DCC_MAYA_LINK_DIR: linkDir(),
    DCC_MAYA_STAND_IN_SCENE: scene.url,
    DCC_MAYA_STAND_IN_COMMANDS: commandsData,
  });
});

afterAll(async () => {
  await maya?.close();
  await scene?.close();
  rmSync(root, { recursive: true, force: true });
});

async function attach(): Promise<LinkClient> {
  const info = JSON.parse(readFileSync(connectionFile(), "utf8")) as {
    socket: string;
    token: string;
    pid: number;
  };
  expect(info.pid).toBe(maya.child.pid);
  const client = new LinkClient({
    endpoint: { kind: "unix", path: info.socket },
    token: info.token,
    reconnect: { attempts: 0 },
  });
  await client.connect();
  return client;
}

describe("the plug-in over the stand-in's main-thread queue", () => {
  it("serves calls on the main thread and writes a connection file", async () => {
    await maya.command(`load ${pluginPath}`);
    const client = await attach();
    try {
      expect(client.welcome?.loop).toBe("pump");
      expect(await client.call("maya.ping", {}, { timeoutMs: 60_000 })).toMatchObject({
        loop: "pump",
      });
      const made = await client.call(
        "maya.cmd",
        { command: "polyCube", args: [], flags: { n: "box" } },
        { timeoutMs: 60_000 },
      );
      expect(made).toEqual(["box", "polyCube1"]);
    } finally {
      client.close();
    }
  });

  it("unloads cleanly and serves again after a reload (reattach)", async () => {
    const first = await attach();
    const gone = new Promise<string>((resolve) =>
      first.onDisconnect((event) => resolve(event.code)),
    );
    await maya.command("unload dcc_maya_link");
    expect(await gone).toBeTypeOf("string");
    expect(existsSync(connectionFile())).toBe(false);
    first.close();

    await maya.command(`load ${pluginPath}`);
    const second = await attach();
    try {
      expect(
        await second.call(
          "maya.cmd",
          { command: "ls", args: ["box"], flags: {} },
          { timeoutMs: 60_000 },
        ),
      ).toEqual(["box"]);
    } finally {
      second.close();
    }
  });
});
