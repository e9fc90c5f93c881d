// The scene-size sweep of the `@dcc/blender` benchmark: for scenes of 10, 1,000 and 10,000
// objects (built directly in bpy, see python/dcc_blender/bench_scene.py), what one command costs
// when a script dispatches it, beside the same operation in plain bpy on the same scene in the
// same run: `data.set` of a location, `data.get` of one, `data.call` `objects.new` + `objects.link`,
// one operator (`mesh.primitive_cube_add`), and a one-command script's transaction (begin and
// commit, and a rollback) beside the same script without one. A command's cost in a script is
// (a script of 2 × `count` of them − a script of `count`) / `count`, so what a script pays once
// (its start) is left out, and plain bpy's is taken the same way (a loop of 2 × `count` − one of
// `count`); every timed part starts on the scene as built (`bench.trim` removes what the parts
// before added); the medians of 3 rounds (7 for an operator up to 1,000 objects, where one costs
// a few milliseconds and varies by more than that between calls). Those scripts run without a
// transaction, and the scene is evaluated before each: a commit's undo step and the evaluation of what the
// script wrote cost what the scene holds (0.3–0.6 s at 10,000 objects after objects.new), once
// per script, and their noise divided by `count` swamped the command's own cost (a transaction
// adds a set lookup per command; its begin and commit are the rows of their own).
// 100,000 objects are opt-in (`DCC_BENCH_SCENE_100K=1`, with `BLENDER_BIN` naming a Blender 3.5
// or later): that size alone takes about three minutes (building it, an evaluation of 7 s after
// each script of objects.new, operators of 6 s, rollbacks of 16 s on 5.2), more than
// `pnpm bench` has for the sweep. Blender 3.4 names each new data-block by a walk of its whole
// list, so building 100,000 there takes many minutes: that Blender is never asked.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createBlenderAdapter } from "@dcc/blender";
import { createAdapterExecutor } from "@dcc/executor";
import { median } from "../../../bench/support.mjs";

const name = (index) => `o${String(index).padStart(6, "0")}`;

/** One command per operation, as a script dispatches it. */
const operations = {
  set_location: (i) =>
    `dispatch("data.set", { path: 'objects["${name(0)}"].location', value: [${i}, 0, 0] });`,
  get_location: () => `dispatch("data.get", { path: 'objects["${name(0)}"].location' });`,
  new_and_link: (i) =>
    `dispatch("data.call", { path: 'collections["Collection"].objects.link', args: [{ $path: dispatch("data.call", { path: "objects.new", args: ["bench-new-${i}", null] }).path }] });`,
  cube_add: (i) => `dispatch("mesh.primitive_cube_add", { location: [${i}, 0, 0] });`,
};

async function timedScript(adapter, executor, code) {
  // What earlier scripts or plain bpy wrote is evaluated now, not in the timed script.
  await adapter.call("bench.settle");
  const begin = performance.now();
  const run = await executor.execute(code, { timeoutSecs: 300 });
  if (!run.success) throw new Error(`bench script failed: ${run.error}`);
  return performance.now() - begin;
}

/** Removes what the timed parts before added: each part starts on the scene `bench.scene` built. */
async function trimmed(adapter) {
  await adapter.call("bench.trim");
}

/** Rows of the sweep, or one saying why it was cut short. */
export async function runSceneSweep({ log, remainingMs }) {
  const started = performance.now();
  const left = () => remainingMs - (performance.now() - started);
  const dataDir = mkdtempSync(join(tmpdir(), "dcc-blender-sweep-"));
  const adapter = createBlenderAdapter({ dataDir, sandbox: "off" });
  const rows = [];
  try {
    await adapter.start({ signal: AbortSignal.timeout(180_000), reportHost: () => {} });
    const { blender } = await adapter.call("ping");
    const [major, minor] = String(blender).split(".").map(Number);
    const large = process.env["DCC_BENCH_SCENE_100K"] === "1";
    const named = major > 3 || minor >= 5;
    const sizes = [10, 1_000, 10_000, ...(large && named ? [100_000] : [])];
    if (large && !named) {
      rows.push({
        metric: `scene sweep at 100000 objects (skipped: Blender ${blender} builds it in minutes; use 3.5 or later)`,
        unit: "",
      });
    }
    const executor = createAdapterExecutor(adapter);
    const plain = createAdapterExecutor(
      Object.create(adapter, { beginTransaction: { value: undefined } }),
    );
    try {
      for (const size of sizes) {
        if (left() < 30_000) {
          rows.push({ metric: `scene sweep at ${size} objects (skipped: time budget)`, unit: "" });
          continue;
        }
        const built = await adapter.call("bench.scene", { objects: size });
        log(`scene of ${built.objects} objects built in bpy in ${built.seconds.toFixed(1)} s`);
        for (const [op, command] of Object.entries(operations)) {
          // An operator costs seconds on a large scene in Blender itself: fewer of them. A round
          // that took long is not repeated, so a slow command cannot eat the bench's budget.
          // A data command costs a fraction of a millisecond: 100 of them stand out of the noise
          // of a script's start on a loaded machine.
          const count = op === "cube_add" ? (size >= 10_000 ? 1 : 5) : 100;
          // An operator's own time varies from one call to the next more than a data command's:
          // more rounds where they are cheap.
          const rounds = op === "cube_add" && size <= 1_000 ? 7 : 3;
          const ours = [];
          const base = [];
          const blenderPart = [];
          for (let round = 0; round < rounds; round++) {
            // Scripts of count and of 2 × count commands: their difference is count commands,
            // without what a script costs once (its start). Plain bpy is timed the same way, and
            // every part starts on the same scene (what an operator adds makes the next one
            // dearer: a cube is a mesh of its own to evaluate).
            const script = (n) =>
              `${Array.from({ length: n }, (_, i) => command(i)).join("\n")}\nreturn 1;`;
            // For an operator, Blender's own part of the same calls too (the bpy.ops call,
            // timed inside blender.op): what the toolkit adds, without the variation of an
            // operator's time between calls and between a script's calls and plain bpy's loop.
            const timed = async (n) => {
              await trimmed(adapter);
              if (op !== "cube_add") return { ms: await timedScript(adapter, plain, script(n)) };
              await adapter.call("bench.op_times", { action: "start" });
              const ms = await timedScript(adapter, plain, script(n));
              const { ms: calls } = await adapter.call("bench.op_times", { action: "stop" });
              return { ms, blender: calls.reduce((sum, each) => sum + each, 0) };
            };
            const short = await timed(count);
            const long = await timed(2 * count);
            ours.push(Math.max(0, long.ms - short.ms) / count);
            if (long.blender !== undefined) {
              blenderPart.push(Math.max(0, long.blender - short.blender) / count);
            }
            const plainTotal = async (n) => {
              await trimmed(adapter);
              await adapter.call("bench.settle");
              return (await adapter.call("bench.plain", { op, count: n })).total;
            };
            const plainShort = await plainTotal(count);
            base.push(Math.max(0, (await plainTotal(2 * count)) - plainShort) / count);
            if (long.ms > 5_000 || left() < 30_000) break;
          }
          await trimmed(adapter);
          // objects.new + link is two data commands: the goal is per command.
          const commands = op === "new_and_link" ? 2 : 1;
          rows.push({
            metric: `${op} at ${size} objects: a script's ${commands === 2 ? "pair of commands" : "command"} vs plain bpy (median per ${commands === 2 ? "pair" : "command"})`,
            ours: median(ours),
            baseline: median(base),
            unit: "ms",
            ...(op === "cube_add"
              ? { goal: "≤ 1.10× plain bpy", pass: median(ours) <= 1.1 * median(base) }
              : size === 100_000
                ? {
                    goal: `≤ 1 ms over plain bpy per command${commands === 2 ? " (2 ms a pair)" : ""}`,
                    pass: median(ours) - median(base) <= commands,
                  }
                : {}),
          });
          if (blenderPart.length > 0) {
            rows.push({
              metric: `${op} at ${size} objects: a script's command vs Blender's own part of the same calls (the bpy.ops call, timed inside blender.op)`,
              ours: median(ours),
              baseline: median(blenderPart),
              unit: "ms",
            });
          }
        }
        const txn = { commit: [], plain: [], rollback: [] };
        const one = `dispatch("data.set", { path: 'objects["${name(1)}"].location', value: [1, 2, 3] });`;
        for (let round = 0; round < 3; round++) {
          txn.commit.push(await timedScript(adapter, executor, `${one}\nreturn 1;`));
          txn.plain.push(await timedScript(adapter, plain, `${one}\nreturn 1;`));
          await adapter.call("bench.settle");
          const begin = performance.now();
          const failed = await executor.execute(`${one}\nthrow new Error("undo me");`, {
            timeoutSecs: 300,
          });
          txn.rollback.push(performance.now() - begin);
          if (failed.success) throw new Error("the failing script succeeded");
        }
        rows.push({
          metric: `one-command script as a transaction (begin + commit) at ${size} objects vs without`,
          ours: median(txn.commit),
          baseline: median(txn.plain),
          unit: "ms",
        });
        rows.push({
          metric: `one-command script that fails (rollback) at ${size} objects vs committed`,
          ours: median(txn.rollback),
          baseline: median(txn.commit),
          unit: "ms",
        });
      }
    } finally {
      await executor.close();
      await plain.close();
    }
  } finally {
    await adapter.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
  return rows;
}
