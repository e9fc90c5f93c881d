// The Maya approval rules on the linked adapter over the stand-in `mayapy`, through the real
// executor: a rule reads the scene through the link (selection, unsaved changes, whether a file
// exists, the current frame) and asks once; a "no" leaves Maya's scene as it was.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Approver } from "@dcc/executor";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type AskingExecutor,
  askingExecutor,
  outputOf as output,
  recordingApprover as person,
} from "../src/approval/__fixtures__/approval-harness.ts";
import { type MayaSession, startMayaSession } from "./support/maya-session.ts";

describe("the linked Maya adapter's approval rules over the stand-in", () => {
  let session: MayaSession;
  let asking: AskingExecutor;
  const run = (code: string, approve: Approver) => asking.run(code, approve);
  const transforms = (): unknown => session.scene.scene.execute("ls", { type: "transform" });

  beforeAll(async () => {
    session = await startMayaSession();
    asking = askingExecutor(session.adapter, {
      timeoutSecs: 120,
      limits: { maxTimeoutSecs: 300 },
    });
  });
  afterAll(async () => {
    await asking?.close();
    await session?.close();
  });

  it("asks once before a delete, naming the nodes, and deletes them on a yes", async () => {
    const { approve, asked } = person(true);
    const result = await run(
      `for (let i = 0; i < 3; i++) dispatch("polySphere", {});
       dispatch("delete", ["pSphere1", "pSphere2", "pSphere3"]);`,
      approve,
    );
    expect(result.success).toBe(true);
    expect(asked).toEqual([
      expect.objectContaining({
        dccName: "maya",
        rule: "delete",
        command: "delete",
        summary: "delete 3 nodes: pSphere1, pSphere2, pSphere3",
      }),
    ]);
    expect(transforms()).not.toContain("pSphere1");
  });

  it("words a delete without names from Maya's selection", async () => {
    const { approve, asked } = person(true);
    await run(
      `dispatch("polyCube", { name: "a" }); dispatch("polyCube", { name: "b" });
       dispatch("select", ["a", "b"]); dispatch("delete");`,
      approve,
    );
    expect(asked.map((question) => question.summary)).toEqual([
      "delete the selection (2 nodes: a, b)",
    ]);
    expect(transforms()).not.toContain("a");
  });

  it("leaves the nodes in Maya on a no, as a catchable APPROVAL_DENIED; twenty deletes ask once", async () => {
    const { approve, asked } = person(false);
    const result = await run(
      `for (let i = 0; i < 20; i++) dispatch("polyCube", { name: "box" + i });
       const codes = [];
       for (let i = 0; i < 20; i++) {
         try { dispatch("delete", ["box" + i]); codes.push("deleted"); } catch (e) { codes.push(e.code + " " + e.data.rule); }
       }
       return [...new Set(codes)];`,
      approve,
    );
    expect(output(result)).toEqual(["APPROVAL_DENIED delete"]);
    expect(asked.map((question) => question.summary)).toEqual(["delete 1 node: box0"]);
    expect(transforms()).toEqual(expect.arrayContaining(["box0", "box19"]));
  });

  it("keeps the script one undo step: a failure after an approved delete brings the nodes back", async () => {
    const { approve, asked } = person(true);
    await run('dispatch("polyCube", { name: "kept" });', approve);
    const result = await run(
      'dispatch("select", ["kept"]); dispatch("delete"); throw new Error("changed my mind");',
      approve,
    );
    expect(result).toMatchObject({ success: false, rollback: { rolledBack: true } });
    expect(asked.map((question) => question.summary)).toEqual([
      "delete the selection (1 node: kept)",
    ]);
    expect(transforms()).toContain("kept");
  });

  it("asks nothing for a save to a new file, and asks before saving over it", async () => {
    const { approve, asked } = person(true);
    await run('dispatch("file", { rename: "scenes/shot.ma", save: true });', approve);
    expect(asked).toEqual([]);
    expect(existsSync(join(session.dataDir, "scenes", "shot.ma"))).toBe(true);
    await run('dispatch("polyTorus", {}); dispatch("file", { save: true });', approve);
    expect(asked.map((question) => [question.rule, question.summary])).toEqual([
      ["overwrite", "overwrite scenes/shot.ma"],
    ]);
  });

  it("keeps an existing file on a no", async () => {
    const before = readFileSync(join(session.dataDir, "scenes", "shot.ma"), "utf8");
    const { approve, asked } = person(false);
    const result = await run(
      `dispatch("polyCone", { name: "late" });
       try { dispatch("file", { args: ["scenes/shot.ma"], exportAll: true, type: "mayaAscii" }); } catch (e) { return e.code; }`,
      approve,
    );
    expect(output(result)).toBe("APPROVAL_DENIED");
    expect(asked.map((question) => question.summary)).toEqual([
      "overwrite scenes/shot.ma with an export of the whole scene",
    ]);
    expect(readFileSync(join(session.dataDir, "scenes", "shot.ma"), "utf8")).toBe(before);
  });

  it("asks before replacing unsaved changes only", async () => {
    const { approve, asked } = person(false);
    await run('dispatch("file", { save: true });', person(true).approve);
    // Over a saved scene the open reaches Maya unasked (the stand-in's scene then refuses the
    // executeScriptNodes flag the Maya side adds: it simulates no script nodes).
    const unchanged = await run(
      'try { dispatch("file", { args: ["scenes/shot.ma"], open: true, force: true }); return "opened"; } catch (e) { return e.code; }',
      approve,
    );
    expect(output(unchanged)).not.toBe("APPROVAL_DENIED");
    expect(asked).toEqual([]);
    expect(unchanged.stats.approvals).toBeUndefined();
    // An absolute path inside the data folder is shown relative to it.
    const target = JSON.stringify(join(session.dataDir, "scenes", "shot.ma"));
    const result = await run(
      `dispatch("polyPlane", { name: "work" });
       try { dispatch("file", { args: [${target}], open: true, force: true }); } catch (e) { return e.code; }`,
      approve,
    );
    expect(output(result)).toBe("APPROVAL_DENIED");
    expect(asked.map((question) => [question.rule, question.summary])).toEqual([
      ["open", "replace the open scene scenes/shot.ma (unsaved changes) with scenes/shot.ma"],
    ]);
    expect(transforms()).toContain("work");
  });

  it("asks before a render, worded from its arguments and Maya's current frame", async () => {
    const { approve, asked } = person(false);
    const result = await run(
      `dispatch("currentTime", [7]);
       try { dispatch("render", { args: ["persp"] }); } catch (e) { return [e.code, e.data.rule]; }`,
      approve,
    );
    expect(output(result)).toEqual(["APPROVAL_DENIED", "render"]);
    expect(asked.map((question) => question.summary)).toEqual(["render frame 7 of persp"]);
  });

  it("asks nothing about a call the policy refuses: it never runs", async () => {
    const { approve, asked } = person(true);
    const result = await run(
      'try { dispatch("file", { args: ["/etc/hostname"], exportAll: true }); } catch (e) { return [e.code, e.data.rule]; }',
      approve,
    );
    expect(output(result)).toEqual(["POLICY", "data-folder"]);
    expect(asked).toEqual([]);
  });
});
