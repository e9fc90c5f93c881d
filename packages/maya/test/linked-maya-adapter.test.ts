// The real-Maya adapter (on @dcc/linked-adapter) over a stand-in `mayapy`: the seed's pattern,
// both policy walls, undo chunks per script, and what a missing Maya says.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLinkedMayaAdapter, MayaNotFoundError } from "../src/index.ts";
import { type MayaSession, startMayaSession } from "./support/maya-session.ts";

describe("a missing Maya", () => {
  it("refuses to start, naming where it looked and how to point at Maya", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "dcc-maya-data-"));
    const adapter = createLinkedMayaAdapter({ dataDir, mayapy: "/nonexistent/mayapy" });
    const started = adapter.start?.({ signal: new AbortController().signal, reportHost: () => {} });
    await expect(started).rejects.toBeInstanceOf(MayaNotFoundError);
    await expect(started).rejects.toThrow(/\/nonexistent\/mayapy.*MAYAPY_BIN/);
    await adapter.close?.();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("passes process options to the launch (TCP, token in a file)", async () => {
    const session = await startMayaSession({
      processOptions: { transport: "tcp", tokenVia: "file" },
    });
    try {
      expect(session.adapter.connection).toBeDefined();
      const welcome = await session.adapter.call("maya.ping");
      expect(welcome).toMatchObject({ loop: "blocking" });
      expect(session.output()).toMatch(/"kind": ?"tcp"/);
    } finally {
      await session.close();
    }
  });

  it("needs a data folder to launch one", () => {
    expect(() => createLinkedMayaAdapter({})).toThrow(/data folder/);
  });
});

describe("the linked Maya adapter over the stand-in", () => {
  let session: MayaSession;
  beforeAll(async () => {
    session = await startMayaSession();
  });
  afterAll(async () => {
    await session?.close();
  });

  it("runs the seed's pattern: five spheres placed with position", async () => {
    const result = await session.run(
      'for (let i = 0; i < 5; i++) dispatch("polySphere", { position: [i, 0, 0] }); return dispatch("ls", { type: "transform" });',
    );
    expect(result).toMatchObject({
      success: true,
      output: ["pSphere1", "pSphere2", "pSphere3", "pSphere4", "pSphere5"],
    });
    const moved = await session.run('return dispatch("getAttr", ["pSphere5.translateX"]);');
    expect(moved).toMatchObject({ success: true, output: 4 });
  });

  it("keeps Maya's flags: an unknown flag is Maya's TypeError as INVALID_FLAG", async () => {
    const result = await session.run(
      'try { dispatch("polySphere", { notAFlag: 1 }); } catch (e) { return { code: e.code, message: e.message }; }',
    );
    expect(result).toMatchObject({ success: true, output: { code: "INVALID_FLAG" } });
  });

  it("refuses before Maya sees the call, naming the rule (the TypeScript wall)", async () => {
    // The script's undo chunk (undoInfo) reaches Maya; none of the refused commands does.
    const commands = (): string[] => session.scene.calls.filter((name) => name !== "undoInfo");
    const before = commands().length;
    const result = await session.run(`
      const out = [];
      for (const [name, args] of [
        ["button", { command: "print('x')" }],
        ["file", { args: ["x.ma"], rename: "x.ma", preSaveScript: "python('x')" }],
        ["python", ["import os"]],
        ["file", { args: ["/etc/hosts"], open: true }],
      ]) {
        try { dispatch(name, args); out.push("ran"); } catch (e) { out.push([e.code, e.data && e.data.rule, e.completion]); }
      }
      return out;`);
    expect(result).toMatchObject({
      success: true,
      output: [
        ["POLICY", "callable-flag", "not_started"],
        ["POLICY", "code-string-flag", "not_started"],
        ["POLICY", "runs-code", "not_started"],
        ["POLICY", "data-folder", "not_started"],
      ],
    });
    expect(commands().length).toBe(before);
  });

  it("refuses on the Maya side too, for a call that skips the TypeScript wall", async () => {
    await session.adapter.call("maya.cmd", { command: "ls", args: [], flags: {} });
    const refused = await session.adapter
      .call("maya.cmd", { command: "python", args: ["import os"], flags: {} })
      .then(
        () => undefined,
        (error: unknown) => error,
      );
    expect(refused).toMatchObject({ code: "POLICY", data: { rule: "runs-code" } });
  });

  it("rolls back a transaction with undo, and commits one as a single named undo step", async () => {
    const { adapter } = session;
    const cmd = (command: string, args: unknown[] = [], flags: Record<string, unknown> = {}) =>
      adapter.call("maya.cmd", { command, args, flags });
    const signal = new AbortController().signal;
    const doomed = await adapter.beginTransaction?.({ label: "dcc_execute: doomed", signal });
    await cmd("polyCube", [], { name: "doomed" });
    await cmd("polyCube", [], { name: "doomed2" });
    expect(await doomed?.rollback()).toEqual({ rolledBack: true });
    expect(await cmd("objExists", ["doomed"])).toBe(false);
    expect(await cmd("objExists", ["doomed2"])).toBe(false);

    const kept = await adapter.beginTransaction?.({ label: "dcc_execute: kept", signal });
    await cmd("polyCube", [], { name: "kept" });
    await cmd("move", [1, 2, 3, "kept"]);
    expect(await kept?.commit()).toEqual({ rolledBack: false, undoStep: "dcc_execute: kept" });
    expect(await cmd("undoInfo", [], { query: true, undoName: true })).toBe("dcc_execute: kept");
    await cmd("undo");
    expect(await cmd("objExists", ["kept"])).toBe(false);

    const empty = await adapter.beginTransaction?.({ label: "dcc_execute: reads", signal });
    await cmd("ls");
    expect(await empty?.rollback()).toMatchObject({ rolledBack: false, reason: "nothing_to_undo" });
  });
});
