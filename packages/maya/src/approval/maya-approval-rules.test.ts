// The Maya approval rules on the simulated adapter, through the real executor: what each rule
// asks (once, with what the call touches), what it leaves alone, and what a "no" leaves behind.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Approver, createAdapterExecutor } from "@dcc/executor";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createMayaAdapter, type MayaAdapter } from "../adapter/maya-adapter.ts";
import { MayaScene } from "../scene/maya-scene.ts";
import {
  type AskingExecutor,
  askingExecutor,
  outputOf as output,
  recordingApprover as person,
} from "./__fixtures__/approval-harness.ts";
import { mayaApprovalRules } from "./maya-approval-rules.ts";

describe("the simulated Maya adapter's approval rules", () => {
  let dataDir: string;
  let adapter: MayaAdapter;
  let asking: AskingExecutor;

  const run = (code: string, approve: Approver) => asking.run(code, approve);
  const names = (): unknown => adapter.scene.execute("ls", { type: "transform" });

  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), "dcc-maya-approval-"));
    adapter = createMayaAdapter({ dataDir });
    asking = askingExecutor(adapter, { timeoutSecs: 60 });
  });
  afterEach(async () => {
    await asking.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("declares the four shared rules, each over catalog commands", () => {
    const rules = adapter.approvalRules?.() ?? [];
    expect(rules.map((rule) => rule.name)).toEqual(["delete", "overwrite", "open", "render"]);
    const commands = new Set(adapter.commands().map((command) => command.name));
    for (const rule of rules) {
      expect(rule.description).not.toBe("");
      for (const command of rule.commands) expect(commands).toContain(command);
    }
  });

  describe("delete", () => {
    beforeEach(() => {
      for (let i = 0; i < 12; i++) adapter.scene.execute("polySphere", {});
    });

    it("asks once, naming the nodes, and deletes them on a yes", async () => {
      const { approve, asked } = person(true);
      const result = await run(
        'dispatch("delete", ["pSphere1", "pSphere2", "pSphere3"]);',
        approve,
      );
      expect(result.success).toBe(true);
      expect(asked).toEqual([
        expect.objectContaining({
          rule: "delete",
          command: "delete",
          summary: "delete 3 nodes: pSphere1, pSphere2, pSphere3",
        }),
      ]);
      expect(names()).not.toContain("pSphere1");
      expect(result.stats.approvals).toEqual([
        expect.objectContaining({ rule: "delete", answer: "approved", by: "test" }),
      ]);
    });

    it("shows ten names and says how many more", async () => {
      const { approve, asked } = person(true);
      const list = Array.from({ length: 12 }, (_, i) => `pSphere${i + 1}`);
      await run(`dispatch("delete", { args: ${JSON.stringify(list)} });`, approve);
      expect(asked.map((question) => question.summary)).toEqual([
        "delete 12 nodes: pSphere1, pSphere2, pSphere3, pSphere4, pSphere5, pSphere6, pSphere7, pSphere8, pSphere9, pSphere10 and 2 more",
      ]);
    });

    it("words a delete without names from the selection", async () => {
      const { approve, asked } = person(true);
      await run('dispatch("select", ["pSphere2", "pSphere4"]); dispatch("delete");', approve);
      expect(asked.map((question) => question.summary)).toEqual([
        "delete the selection (2 nodes: pSphere2, pSphere4)",
      ]);
      expect(names()).not.toContain("pSphere4");
    });

    it("words a history delete as what it removes", async () => {
      const { approve, asked } = person(true);
      await run('dispatch("delete", { args: ["pSphere1"], ch: true });', approve);
      expect(asked.map((question) => question.summary)).toEqual([
        "delete the construction history of 1 node: pSphere1",
      ]);
    });

    it("leaves the nodes on a no, as a catchable APPROVAL_DENIED", async () => {
      const { approve, asked } = person(false);
      const result = await run(
        `try { dispatch("delete", ["pSphere1", "pSphere2"]); return "deleted"; }
         catch (e) { return { code: e.code, rule: e.data.rule, reason: e.data.reason, completion: e.completion }; }`,
        approve,
      );
      expect(output(result)).toEqual({
        code: "APPROVAL_DENIED",
        rule: "delete",
        reason: "declined",
        completion: "not_started",
      });
      expect(asked).toHaveLength(1);
      expect(names()).toEqual(expect.arrayContaining(["pSphere1", "pSphere2"]));
    });

    it("asks once for twenty deletes", async () => {
      const { approve, asked } = person(true);
      const result = await run(
        `for (let i = 0; i < 20; i++) dispatch("polyCube", { name: "box" + i });
         for (let i = 0; i < 20; i++) dispatch("delete", ["box" + i]);
         return dispatch("ls", { type: "transform" }).filter((name) => name.startsWith("box"));`,
        approve,
      );
      expect(output(result)).toEqual([]);
      expect(asked.map((question) => question.summary)).toEqual(["delete 1 node: box0"]);
    });

    it("asks nothing for commands outside the rules", async () => {
      const { approve, asked } = person(false);
      const result = await run('dispatch("polyCube", {}); dispatch("move", [1, 2, 3]);', approve);
      expect(result.success).toBe(true);
      expect(asked).toEqual([]);
      expect(result.stats.approvals).toBeUndefined();
    });
  });

  describe("overwrite", () => {
    it("asks nothing for a save to a new file, and asks before saving over it", async () => {
      const { approve, asked } = person(true);
      expect(
        output(await run('return dispatch("file", { rename: "shot", save: true });', approve)),
      ).toBe("shot.json");
      expect(asked).toEqual([]);
      await run('dispatch("polyCube", {}); dispatch("file", { save: true });', approve);
      await run('dispatch("file", { rn: "shot.json", s: true });', approve);
      expect(asked.map((question) => [question.rule, question.summary])).toEqual([
        ["overwrite", "overwrite shot.json"],
        ["overwrite", "overwrite shot.json"],
      ]);
    });

    it("keeps the file as it was on a no", async () => {
      writeFileSync(join(dataDir, "kept.json"), "not a scene\n");
      const { approve, asked } = person(false);
      const result = await run(
        'try { dispatch("file", { rename: "kept.json", save: true }); } catch (e) { return e.code; }',
        approve,
      );
      expect(output(result)).toBe("APPROVAL_DENIED");
      expect(asked.map((question) => question.summary)).toEqual(["overwrite kept.json"]);
      // Denied before it ran: not even the rename of the same call happened.
      expect(adapter.scene.sceneName).toBe("");
      expect(readFileSync(join(dataDir, "kept.json"), "utf8")).toBe("not a scene\n");
    });

    it("asks nothing for queries and a rename alone", async () => {
      writeFileSync(join(dataDir, "kept.json"), "not a scene\n");
      const { approve, asked } = person(false);
      const result = await run(
        'return [dispatch("file", { query: true, exists: true, args: ["kept.json"] }), dispatch("file", { rename: "kept.json" })];',
        approve,
      );
      expect(output(result)).toEqual([true, "kept.json"]);
      expect(asked).toEqual([]);
    });
  });

  describe("open", () => {
    beforeEach(() => {
      adapter.scene.execute("polySphere", {});
      adapter.scene.execute("file", { rename: "a", save: true });
      adapter.scene.execute("polyCube", {});
      adapter.scene.execute("file", { rename: "b", save: true });
    });

    it("asks nothing over a scene without unsaved changes", async () => {
      const { approve, asked } = person(false);
      const result = await run(
        'return dispatch("file", { args: ["a"], open: true, force: true });',
        approve,
      );
      expect(output(result)).toBe("a.json");
      expect(asked).toEqual([]);
    });

    it("asks before replacing unsaved changes, and keeps them on a no", async () => {
      const { approve, asked } = person(false);
      const result = await run(
        `dispatch("polyTorus", { name: "work" });
         try { dispatch("file", { args: ["a"], o: true, f: true }); } catch (e) { return e.code; }`,
        approve,
      );
      expect(output(result)).toBe("APPROVAL_DENIED");
      expect(asked.map((question) => [question.rule, question.summary])).toEqual([
        ["open", "replace the open scene b.json (unsaved changes) with a"],
      ]);
      expect(names()).toContain("work");
    });

    it("words a new scene, and leaves a call without force to Maya's own refusal", async () => {
      const { approve, asked } = person(true);
      const refused = await run(
        'dispatch("polyTorus", {}); try { dispatch("file", { new: true }); } catch (e) { return e.message; }',
        approve,
      );
      expect(output(refused)).toMatch(/Unsaved changes/);
      expect(asked).toEqual([]);
      await run(
        'dispatch("polyTorus", {}); dispatch("file", { new: true, force: true });',
        approve,
      );
      expect(asked.map((question) => question.summary)).toEqual([
        "replace the open scene b.json (unsaved changes) with a new, empty scene",
      ]);
      expect(names()).toEqual([]);
    });
  });

  describe("render", () => {
    it("asks before a render, worded from its arguments and the current frame", async () => {
      const { approve, asked } = person(false);
      const result = await run(
        `dispatch("currentTime", [12]);
         try { dispatch("render", { args: ["persp"], x: 640, y: 480 }); } catch (e) { return [e.code, e.data.rule]; }`,
        approve,
      );
      expect(output(result)).toEqual(["APPROVAL_DENIED", "render"]);
      expect(asked.map((question) => question.summary)).toEqual([
        "render frame 12 of persp at 640x480",
      ]);
    });

    it("words bakes and playblasts, and asks nothing for a query", async () => {
      const rules = adapter.approvalRules?.() ?? [];
      const render = rules.find((rule) => rule.name === "render");
      const covers = (command: string, args: unknown) =>
        render?.covers?.({ command, args, signal: new AbortController().signal });
      adapter.scene.execute("polySphere", {});
      adapter.scene.execute("select", ["pSphere1"]);
      expect(await covers("bakeResults", { time: [1, 24] })).toBe(
        "bake the animation of the selection (1 node: pSphere1) over frames 1-24",
      );
      expect(await covers("playblast", { startTime: 1, endTime: 10, filename: "blast" })).toBe(
        "playblast frames 1-10 to blast",
      );
      expect(await covers("ogsRender", { camera: "top", frame: 3 })).toBe(
        "render frame 3 of top with Viewport 2.0",
      );
      expect(await covers("ogsRender", { query: true, camera: true })).toBeUndefined();
      expect(await covers("playblast", { activeEditor: true })).toBeUndefined();
    });
  });

  it("asks with a plain summary when a rule cannot read the scene", async () => {
    const bare = createMayaAdapter();
    const asking = createAdapterExecutor(bare, { approval: { ask: ["overwrite"] } });
    try {
      const { approve, asked } = person(false);
      const result = await asking.execute(
        'try { dispatch("file", { rename: "a", save: true }); } catch (e) { return e.code; }',
        { timeoutSecs: 60, approve },
      );
      // Without a data folder the scene cannot say whether the file exists: asked all the same.
      expect(output(result)).toBe("APPROVAL_DENIED");
      expect(asked.map((question) => question.summary)).toEqual(["file"]);
    } finally {
      await asking.close();
    }
  });
});

describe("the Maya approval rules' words", () => {
  let dataDir: string;
  let scene: MayaScene;
  const covers = async (rule: string, command: string, args: unknown, untitled = false) => {
    const rules = mayaApprovalRules({
      query: (name, callArgs) => scene.execute(name, callArgs),
      ...(untitled ? { untitledSave: "unknown" as const } : { untitledSave: "fails" as const }),
    });
    const found = rules.find((candidate) => candidate.name === rule);
    return found?.covers?.({ command, args, signal: new AbortController().signal });
  };

  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), "dcc-maya-approval-"));
    scene = new MayaScene({ dataDir });
  });
  afterEach(() => {
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("covers removing a joint and a namespace with its content, not other namespace calls", async () => {
    expect(await covers("delete", "removeJoint", ["joint2"])).toBe(
      "remove 1 joint: joint2 from the skeleton",
    );
    expect(
      await covers("delete", "namespace", {
        removeNamespace: "chars",
        deleteNamespaceContent: true,
      }),
    ).toBe("delete the namespace chars and every node in it");
    expect(
      await covers("delete", "namespace", {
        removeNamespace: "chars",
        mergeNamespaceWithRoot: true,
      }),
    ).toBeUndefined();
    expect(await covers("delete", "namespace", { addNamespace: "chars" })).toBeUndefined();
    expect(await covers("delete", "delete", { all: true, constraints: true })).toBe(
      "delete all constraints in the scene",
    );
  });

  it("finds the file an export without an extension writes", async () => {
    scene.execute("file", { rename: "scenes/x.ma", save: true });
    expect(
      await covers("overwrite", "file", { args: ["scenes/x"], ea: true, type: "mayaAscii" }),
    ).toBe("overwrite scenes/x.ma with an export of the whole scene");
    expect(
      await covers("overwrite", "file", { args: ["scenes/x"], es: true, type: "mayaBinary" }),
    ).toBeUndefined();
    expect(await covers("overwrite", "exportEdits", ["scenes/x.ma"])).toBe(
      "overwrite scenes/x.ma with the reference edits",
    );
    expect(await covers("overwrite", "file", { args: ["scenes/y.ma"], ea: true })).toBeUndefined();
  });

  it("asks about an untitled save where the host may pick an existing file", async () => {
    expect(await covers("overwrite", "file", { save: true })).toBeUndefined();
    expect(await covers("overwrite", "file", { save: true }, true)).toBe(
      "save the untitled scene (Maya names the file itself, and it may exist)",
    );
  });
});
