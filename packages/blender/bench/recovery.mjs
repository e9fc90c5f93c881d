// The recovery copy's cost (`blender.recovery.save`, kept after each committed script that
// changed the scene) for scenes of 10, 1,000 and 10,000 objects, beside a plain
// `bpy.ops.wm.save_as_mainfile(copy=True)` of the same scene to the data folder in the same
// Blender (`bench.save`), timed the same way: wall time of the link call, median of 5 saves,
// the two interleaved. The scenes are made inside Blender (`bench.populate`), so the run costs
// one Blender start and the saves.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createBlenderAdapter } from "@dcc/blender";
import { median } from "../../../bench/support.mjs";

const sizes = [10, 1000, 10_000];
const saves = 5;

/** A scene of exactly `count` cube objects, each with its own mesh (made inside Blender). */
async function sceneOf(adapter, count) {
  const { objects } = await adapter.call("bench.populate", { count });
  if (objects !== count) throw new Error(`made ${objects} objects, not ${count}`);
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
  if (remainingMs < 25_000) {
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
      const inside = { plain: [], copy: [] };
      const [plain, copy] = await timedPair(
        async () => inside.plain.push((await adapter.call("bench.save")).seconds * 1000),
        async () => inside.copy.push((await adapter.call("blender.recovery.save")).seconds * 1000),
      );
      log(
        `  inside Blender: copy ${median(inside.copy).toFixed(1)} ms, plain ${median(inside.plain).toFixed(1)} ms`,
      );
      log(
        `recovery copy of ${count} objects: ${copy.toFixed(1)} ms, plain save ${plain.toFixed(1)} ms`,
      );
      rows.push({
        metric: `recovery copy, ${count.toLocaleString("en")} objects (vs a plain bpy save)`,
        ours: copy,
        baseline: plain,
        unit: "ms",
        goal: "<= 1.5x a plain save + 5 ms (it is one, and a rename)",
        pass: copy <= plain * 1.5 + 5,
      });
    }
  } finally {
    await adapter.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
  return rows;
}
