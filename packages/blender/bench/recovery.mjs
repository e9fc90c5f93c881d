// The recovery copy's cost (`blender.recovery.save`, kept after each committed script that
// changed the scene) for scenes of 10, 1,000 and 10,000 objects, beside a plain
// `bpy.ops.wm.save_as_mainfile(copy=True)` of the same scene to the data folder in the same
// Blender (`bench.save`), timed the same way: wall time of the link call, median of 5 saves,
// the two interleaved.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createBlenderAdapter } from "@dcc/blender";
import { median } from "../../../bench/support.mjs";

const sizes = [10, 1000, 10_000];
const saves = 5;

const op = (adapter, operator, args = {}) => adapter.call("blender.op", { operator, args });

/** A scene of exactly `count` mesh objects, each with its own mesh: cubes, then doublings. */
async function sceneOf(adapter, count) {
  await adapter.call("blender.reset");
  await op(adapter, "object.select_all", { action: "SELECT" });
  await op(adapter, "object.delete");
  let doublings = 0;
  while (count % 2 ** (doublings + 1) === 0 && count / 2 ** (doublings + 1) >= 5) doublings++;
  const base = count / 2 ** doublings;
  for (let i = 0; i < base; i++)
    await op(adapter, "mesh.primitive_cube_add", { location: [i, 0, 0] });
  for (let i = 0; i < doublings; i++) {
    await op(adapter, "object.select_all", { action: "SELECT" });
    await op(adapter, "object.duplicate", { linked: false });
  }
  const objects = await adapter.call("data.list", { collection: "objects" });
  if (objects.length !== count) throw new Error(`made ${objects.length} objects, not ${count}`);
}

/** Medians of `saves` runs of each action, interleaved so that load affects both alike. */
async function timedPair(first, second) {
  const times = [[], []];
  for (let i = 0; i < saves; i++) {
    for (const [index, action] of [first, second].entries()) {
      const begin = performance.now();
      await action();
      times[index].push(performance.now() - begin);
    }
  }
  return times.map(median);
}

/** Runs the recovery benchmark; returns its rows (none when time is short). */
export async function runRecoveryBench({ log, remainingMs }) {
  if (remainingMs < 40_000) {
    log("recovery copy: skipped, the bench's time is used up");
    return [];
  }
  const dataDir = mkdtempSync(join(tmpdir(), "dcc-bench-recovery-"));
  const adapter = createBlenderAdapter({ dataDir });
  const rows = [];
  try {
    await adapter.start({ signal: AbortSignal.timeout(180_000), reportHost: () => {} });
    for (const count of sizes) {
      await sceneOf(adapter, count);
      const [plain, copy] = await timedPair(
        () => adapter.call("bench.save"),
        () => adapter.call("blender.recovery.save"),
      );
      log(
        `recovery copy of ${count} objects: ${copy.toFixed(1)} ms, plain save ${plain.toFixed(1)} ms`,
      );
      rows.push({
        metric: `recovery copy, ${count.toLocaleString("en")} objects (vs a plain bpy save)`,
        ours: copy,
        baseline: plain,
        unit: "ms",
        goal: "<= 1.5x a plain save (it is one, and a rename)",
        pass: copy <= plain * 1.5,
      });
    }
  } finally {
    await adapter.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
  return rows;
}
