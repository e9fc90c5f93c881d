// The Blender adapter's approval rules on a real headless Blender, through the real executor: a
// covered command asks once, naming what it touches (read from Blender and the data folder); a
// call outside its rule (a save to a new file, an open over a scene without unsaved changes)
// asks nothing; a declined command did nothing and the script can catch APPROVAL_DENIED.
import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import {
  type ApprovalCall,
  type ApprovalQuestion,
  createAdapterExecutor,
  type DccApiExecutor,
} from "@dcc/executor";
import { assertBlender, describeWithBlender, waitFor } from "@dcc/test-support";
import { afterAll, beforeAll, beforeEach, expect, it } from "vitest";
import { type BlenderSession, outputOf, startBlenderSession } from "./support/blender-session.ts";
import { killBlender } from "./support/kill-blender.ts";

interface Asked {
  rule: string;
  command: string;
  summary: string;
}

describeWithBlender("approval rules on a real Blender", { timeout: 300_000 }, () => {
  let session: BlenderSession;
  let executor: DccApiExecutor;
  let asked: Asked[];
  // The answer the person gives: yes, or no.
  let answer: boolean;
  const run = (code: string) =>
    executor.execute(code, {
      timeoutSecs: 120,
      approve: async (question: ApprovalQuestion) => {
        asked.push({ rule: question.rule, command: question.command, summary: question.summary });
        return answer ? { approved: true, by: "tester" } : { approved: false, reason: "declined" };
      },
    });
  const names = async (): Promise<string[]> =>
    outputOf<string[]>(
      await run(
        'return dispatch("data.list", { collection: "objects" }).map((o) => o.name).sort();',
      ),
    );

  beforeAll(async () => {
    assertBlender();
    session = await startBlenderSession();
    executor = createAdapterExecutor(session.adapter, {
      limits: { maxTimeoutSecs: 300 },
      approval: { ask: ["delete", "overwrite", "open", "render"] },
    });
  }, 300_000);
  afterAll(async () => {
    await executor?.close();
    await session?.close();
  });
  beforeEach(async () => {
    await session.adapter.call("blender.reset");
    asked = [];
    answer = true;
  });

  it("asks once before deleting the selected objects, naming them, and deletes them on yes", async () => {
    const result = await run(`
      dispatch("object.select_all", { action: "SELECT" });
      dispatch("object.delete");
      return dispatch("data.list", { collection: "objects" }).length;`);
    expect(outputOf<number>(result)).toBe(0);
    expect(asked).toEqual([
      {
        rule: "delete",
        command: "object.delete",
        summary: "delete 3 objects: Camera, Cube, Light",
      },
    ]);
    expect(result.success && result.stats.approvals).toMatchObject([
      { rule: "delete", command: "object.delete", answer: "approved", by: "tester" },
    ]);
  });

  it("leaves the objects when the delete is declined, and the script catches APPROVAL_DENIED", async () => {
    answer = false;
    const result = await run(`
      dispatch("object.select_all", { action: "SELECT" });
      const denied = (command, args) => {
        try { dispatch(command, args); return "ran"; }
        catch (e) { return { code: e.code, rule: e.data && e.data.rule, reason: e.data && e.data.reason }; }
      };
      return {
        operator: denied("object.delete"),
        removal: denied("data.call", { path: "objects.remove", args: [{ $path: 'objects["Cube"]' }] }),
      };`);
    const denial = { code: "APPROVAL_DENIED", rule: "delete", reason: "declined" };
    expect(outputOf(result)).toEqual({ operator: denial, removal: denial });
    // One question: the answer holds for the rest of the script.
    expect(asked).toHaveLength(1);
    expect(await names()).toEqual(["Camera", "Cube", "Light"]);
  });

  it("asks once for twenty deletes, naming the first", async () => {
    const result = await run(`
      for (let i = 0; i < 20; i++) dispatch("object.empty_add", { location: [i, 0, 0] });
      const empties = dispatch("data.list", { collection: "objects", options: { type: "EMPTY" } });
      for (const empty of empties) {
        dispatch("data.call", { path: "objects.remove", args: [{ $path: 'objects["' + empty.name + '"]' }] });
      }
      dispatch("object.select_all", { action: "DESELECT" });
      dispatch("data.call", { path: 'objects["Cube"].select_set', args: [true] });
      dispatch("object.delete");
      return empties.length;`);
    expect(outputOf<number>(result)).toBe(20);
    expect(asked).toEqual([
      { rule: "delete", command: "data.call", summary: "delete 1 object: Empty" },
    ]);
    expect(await names()).toEqual(["Camera", "Light"]);
  });

  it("asks nothing for a removal no rule covers or an empty selection", async () => {
    const result = await run(`
      dispatch("data.call", { path: 'objects["Cube"].modifiers.new', kwargs: { name: "S", type: "SUBSURF" } });
      dispatch("data.call", { path: 'objects["Cube"].modifiers.remove', args: [{ $path: 'objects["Cube"].modifiers["S"]' }] });
      dispatch("object.select_all", { action: "DESELECT" });
      dispatch("object.delete");
      return 1;`);
    expect(outputOf<number>(result)).toBe(1);
    expect(asked).toEqual([]);
    expect(await names()).toEqual(["Camera", "Cube", "Light"]);
  });

  it("asks nothing for a save or an export to a new file, and asks before writing over one", async () => {
    const dataDir = session.adapter.dataDir;
    const first = await run(`
      dispatch("wm.save_as_mainfile", { filepath: "approval/new.blend" });
      dispatch("wm.obj_export", { filepath: "approval/cube.obj" });
      return 1;`);
    expect(outputOf<number>(first)).toBe(1);
    expect(asked).toEqual([]);
    expect(existsSync(join(dataDir, "approval/new.blend"))).toBe(true);

    // A save without a path writes over the open file.
    const save = await run('dispatch("wm.save_mainfile"); return 1;');
    expect(outputOf<number>(save)).toBe(1);
    expect(asked).toEqual([
      {
        rule: "overwrite",
        command: "wm.save_mainfile",
        summary: "overwrite the open file approval/new.blend",
      },
    ]);

    asked = [];
    answer = false;
    const exported = join(dataDir, "approval/cube.obj");
    const before = { text: readFileSync(exported, "utf8"), mtime: statSync(exported).mtimeMs };
    const again = await run(`
      dispatch("data.set", { path: 'objects["Cube"].location', value: [5, 5, 5] });
      try { dispatch("wm.obj_export", { filepath: "//cube.obj" }); return "ran"; }
      catch (e) { return e.code; }`);
    expect(outputOf<string>(again)).toBe("APPROVAL_DENIED");
    expect(asked).toEqual([
      { rule: "overwrite", command: "wm.obj_export", summary: "overwrite approval/cube.obj" },
    ]);
    expect({ text: readFileSync(exported, "utf8"), mtime: statSync(exported).mtimeMs }).toEqual(
      before,
    );
  });

  it("asks nothing to open over a scene without unsaved changes, and asks over unsaved ones", async () => {
    const saved = await run(
      'dispatch("wm.save_as_mainfile", { filepath: "opened.blend" }); return 1;',
    );
    expect(outputOf<number>(saved)).toBe(1);
    // Saved and unchanged (a read-only script between changes nothing).
    await names();
    const reopened = await run(
      'dispatch("wm.open_mainfile", { filepath: "opened.blend" }); return 1;',
    );
    expect(outputOf<number>(reopened)).toBe(1);
    const factory = await run('dispatch("wm.read_homefile"); return 1;');
    expect(outputOf<number>(factory)).toBe(1);
    expect(asked).toEqual([]);

    // A change in the same script counts, as does one left by an earlier script.
    answer = false;
    const declined = await run(`
      dispatch("mesh.primitive_uv_sphere_add", { location: [0, 4, 0] });
      try { dispatch("wm.open_mainfile", { filepath: "opened.blend" }); return "ran"; }
      catch (e) { return e.code; }`);
    expect(outputOf<string>(declined)).toBe("APPROVAL_DENIED");
    expect(asked).toEqual([
      {
        rule: "open",
        command: "wm.open_mainfile",
        summary: "replace the unsaved scene, losing its unsaved changes, with opened.blend",
      },
    ]);
    expect(await names()).toEqual(["Camera", "Cube", "Light", "Sphere"]);
    asked = [];
    answer = true;
    const replaced = await run('dispatch("wm.read_factory_settings"); return 1;');
    expect(outputOf<number>(replaced)).toBe(1);
    expect(asked).toEqual([
      {
        rule: "open",
        command: "wm.read_factory_settings",
        summary:
          "replace the unsaved scene, losing its unsaved changes, with the factory start-up scene",
      },
    ]);
    expect(await names()).toEqual(["Camera", "Cube", "Light"]);
  });

  it("counts neither a rolled-back script nor a read as a change, and an undo as one", async () => {
    const open =
      'try { dispatch("wm.open_mainfile", { filepath: "undo.blend" }); return "ran"; } catch (e) { return e.code; }';
    answer = false;
    expect(
      outputOf(await run('dispatch("wm.save_as_mainfile", { filepath: "undo.blend" }); return 1;')),
    ).toBe(1);
    const failed = await run(
      'dispatch("mesh.primitive_cube_add", { location: [0, 0, 3] }); throw new Error("late");',
    );
    expect(failed).toMatchObject({ success: false, rollback: { rolledBack: true } });
    await names();
    expect(outputOf(await run(open))).toBe("ran");
    expect(asked).toEqual([]);

    // A change saved (over the file: approved), then undone: the scene no longer matches it.
    answer = true;
    expect(
      outputOf(
        await run(
          'dispatch("mesh.primitive_cube_add", { location: [0, 0, 3] }); dispatch("wm.save_mainfile"); return 1;',
        ),
      ),
    ).toBe(1);
    expect(asked.map((question) => question.rule)).toEqual(["overwrite"]);
    asked = [];
    answer = false;
    expect((await run('dispatch("ed.undo"); return 1;')).success).toBe(true);
    expect(outputOf(await run(open))).toBe("APPROVAL_DENIED");
    expect(asked).toEqual([
      {
        rule: "open",
        command: "wm.open_mainfile",
        summary: "reload undo.blend, losing the open scene's unsaved changes",
      },
    ]);
  });

  it("asks before a render, saying what it renders, and not before a capture", async () => {
    answer = false;
    const result = await run(`
      dispatch("data.set", { path: 'scenes["Scene"].render.resolution_x', value: 64 });
      dispatch("data.set", { path: 'scenes["Scene"].render.resolution_y', value: 48 });
      dispatch("data.set", { path: 'scenes["Scene"].render.resolution_percentage', value: 50 });
      try { dispatch("viewport.screenshot", { width: 32, height: 32 }); } catch (e) {}
      try { dispatch("render.render", { write_still: true }); return "ran"; }
      catch (e) { return e.code; }`);
    expect(outputOf<string>(result)).toBe("APPROVAL_DENIED");
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({ rule: "render", command: "render.render" });
    expect(asked[0]?.summary).toMatch(/^render frame 1 of scene Scene with [A-Z_]+ at 32×24$/);
  });

  it("drops a read held up by another script's render when its script stops, and Blender goes on", async () => {
    // A rule's read waits its turn behind another script's command (a render here). The script
    // asking is stopped meanwhile: its read is dropped, Blender goes on, the render completes.
    let reading: (() => void) | undefined;
    const readStarted = new Promise<void>((resolve) => {
      reading = resolve;
    });
    const adapter = session.adapter;
    const watched = Object.create(adapter, {
      approvalRules: {
        value: () =>
          (adapter.approvalRules?.() ?? []).map((rule) => ({
            ...rule,
            covers: (call: ApprovalCall) => {
              if (call.command === "object.delete") reading?.();
              return rule.covers?.(call);
            },
          })),
      },
    }) as typeof adapter;
    const second = createAdapterExecutor(watched, {
      limits: { maxTimeoutSecs: 300 },
      approval: { ask: ["delete"] },
    });
    try {
      const launches = adapter.launches;
      const render = run(`
        dispatch("data.set", { path: 'scenes["Scene"].render.engine', value: "CYCLES" });
        dispatch("data.set", { path: 'scenes["Scene"].cycles.samples', value: 12000 });
        dispatch("data.set", { path: 'scenes["Scene"].cycles.use_adaptive_sampling', value: false });
        dispatch("data.set", { path: 'scenes["Scene"].cycles.use_denoising', value: false });
        dispatch("data.set", { path: 'scenes["Scene"].render.resolution_x', value: 64 });
        dispatch("data.set", { path: 'scenes["Scene"].render.resolution_y', value: 64 });
        dispatch("render.render");
        return "rendered";`);
      // The render has been approved (asked before it runs): Blender is busy with it now.
      await waitFor(
        "the render approved",
        () => asked.some((question) => question.rule === "render"),
        120_000,
      );
      const stop = new AbortController();
      const deleting = second.execute('dispatch("object.delete"); return "deleted";', {
        timeoutSecs: 120,
        signal: stop.signal,
        approve: async () => ({ approved: true }),
      });
      await readStarted;
      stop.abort();
      const stopped = await deleting;
      expect(stopped.success && stopped.output).not.toBe("deleted");
      expect(outputOf<string>(await render)).toBe("rendered");
      // The next command would meet a Blender that went away (HOST_GONE): none did.
      expect(await names()).toEqual(["Camera", "Cube", "Light"]);
      expect(adapter.launches).toBe(launches);
    } finally {
      await second.close();
    }
  });

  it("leaves the restart notice to the command: a question after a restart has a plain summary", async () => {
    const pid = session.adapter.pid as number;
    const launches = session.adapter.launches;
    killBlender(pid);
    await waitFor(
      "a new Blender",
      () => session.adapter.launches === launches + 1 && session.adapter.pid !== pid,
      120_000,
    );
    // Reading the selection would take the notice that Blender was restarted: the question
    // names the command only, and the command itself is told (and runs nothing).
    const result = await run(`
      try { dispatch("object.delete"); return "ran"; }
      catch (e) { return { code: e.code, completion: e.completion }; }`);
    expect(outputOf(result)).toEqual({ code: "HOST_GONE", completion: "not_started" });
    expect(asked).toEqual([{ rule: "delete", command: "object.delete", summary: "object.delete" }]);
  });
});
