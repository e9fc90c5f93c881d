// The real Maya side, launched as `mayapy startup.py` over the stand-in `maya` package, driven
// through @dcc/link: commands reach maya.cmds by name with the stand-in's strict checks, the
// policy refuses before Maya sees a call, and Maya's errors come back with codes.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DccProcess, LinkError, RemoteCallError } from "@dcc/link";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { commandsData, standInMayapy, startupScript } from "./support/stand-in-paths.ts";
import { type StandInScene, startStandInScene } from "./support/stand-in-scene.ts";

let dataDir: string;
let scene: StandInScene;
let host: DccProcess;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), "dcc-maya-host-"));
  scene = await startStandInScene({ dataDir });
  host = await DccProcess.start({
    command: standInMayapy,
    args: [startupScript],
    // The stand-in is python3 through a version manager's shim, talking to a scene server on
    // loopback TCP: the OS sandbox would hide both.
    sandbox: "off",
    env: {
      DCC_MAYA_DATA_DIR: dataDir,
      DCC_MAYA_STAND_IN_SCENE: scene.url,
      DCC_MAYA_STAND_IN_COMMANDS: commandsData,
    },
  });
});

afterAll(async () => {
  await host?.close();
  await scene?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const cmd = (command: string, args: unknown[] = [], flags: Record<string, unknown> = {}) =>
  host.call("maya.cmd", { command, args, flags }, { timeoutMs: 60_000 });

async function failure(promise: Promise<unknown>): Promise<RemoteCallError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(LinkError);
  const remote = (error as LinkError).cause ?? error;
  expect(remote).toBeInstanceOf(RemoteCallError);
  return remote as RemoteCallError;
}

describe("headless Maya side over the stand-in", () => {
  it("answers a ping from a blocking loop on the main thread", async () => {
    const ping = (await host.call("maya.ping", {}, { timeoutMs: 60_000 })) as Record<
      string,
      unknown
    >;
    expect(ping).toMatchObject({ maya: "2025 (stand-in)", loop: "blocking" });
  });

  it("runs the seed's pattern: position places each new sphere", async () => {
    for (let i = 0; i < 3; i++) {
      expect(await cmd("polySphere", [], { position: [i, 0, 0], r: 0.5 })).toHaveLength(2);
    }
    expect(await cmd("ls", [], { type: "transform" })).toEqual([
      "pSphere1",
      "pSphere2",
      "pSphere3",
    ]);
    expect(await cmd("getAttr", ["pSphere3.translate"])).toEqual([[2, 0, 0]]);
  });

  it("passes Maya's errors back with codes and messages", async () => {
    const missing = await failure(cmd("delete", ["nothingHere"]));
    expect(missing.remoteCode).toBe("NO_OBJECT");
    const flag = await failure(cmd("polyCube", [], { notAFlag: 1 }));
    expect(flag.remoteCode).toBe("INVALID_FLAG");
    expect(flag.remoteMessage).toContain("notAFlag");
    const type = await failure(cmd("polyCube", [], { width: "wide" }));
    expect(type.remoteCode).toBe("INVALID_ARGUMENT");
  });

  it("refuses before Maya sees the call, naming the rule", async () => {
    const before = scene.calls.length;
    const code = await failure(cmd("file", [], { rename: "x.ma", preSaveScript: "python('x')" }));
    expect(code.remoteCode).toBe("POLICY");
    expect(code.remoteData).toEqual({ rule: "code-string-flag" });
    const outside = await failure(cmd("file", ["/etc/hosts"], { open: true }));
    expect(outside.remoteData).toEqual({ rule: "data-folder" });
    expect(scene.calls.length).toBe(before);
  });
});
