// The `viewport.screenshot` half of the `@dcc/blender` benchmark: a script that captures the 3D
// view at 256², 512² and 1024², per mode (headless: Workbench; Xvfb, with
// DCC_BENCH_CAPTURE_XVFB=1: render.opengl), beside a
// script of one `data.set` (a round trip through the main thread to Blender and back) in the same
// Blender. The first capture of a Blender (shader compilation) is a row of its own. Before them,
// what the host's checks of a capture file cost (create it, open it without following links,
// check it, read it, remove it) beside reading and removing a file as it did before.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { readFile, unlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createBlenderAdapter } from "@dcc/blender";
import { createAdapterExecutor } from "@dcc/executor";
import { median } from "../../../bench/support.mjs";
// Internal to the package (not exported): imported from the build beside this folder.
import {
  createCaptureFile,
  readCaptureFile,
  removeCaptureFile,
} from "../dist/adapter/internal/capture-file.js";

const sizes = [256, 512, 1024];
const rounds = 3;

async function timedScript(executor, code) {
  const begin = performance.now();
  const result = await executor.execute(code, { timeoutSecs: 120 });
  const ms = performance.now() - begin;
  if (!result.success) throw new Error(`bench script failed: ${result.error}`);
  return { ms, result };
}

async function modeRows(window, log) {
  const dataDir = mkdtempSync(join(tmpdir(), "dcc-blender-capture-bench-"));
  const adapter = createBlenderAdapter({ dataDir, window });
  const rows = [];
  try {
    await adapter.start({ signal: AbortSignal.timeout(180_000), reportHost: () => {} });
    const executor = createAdapterExecutor(adapter, {
      limits: { maxImageBytes: 16 * 1024 * 1024 },
    });
    try {
      const way = window === "none" ? "headless, Workbench" : "Xvfb, render.opengl";
      const capture = (side) =>
        `return dispatch("viewport.screenshot", { width: ${side}, height: ${side} });`;
      const noop =
        'dispatch("data.set", { path: "scenes[\\"Scene\\"].frame_current", value: 1 }); return 1;';
      await timedScript(executor, noop);
      const first = await timedScript(executor, capture(256));
      rows.push({
        metric: `first capture of a Blender, 256² (${way})`,
        ours: first.ms,
        unit: "ms",
      });
      const baseline = [];
      for (let round = 0; round < rounds * sizes.length; round++) {
        baseline.push((await timedScript(executor, noop)).ms);
      }
      for (const side of sizes) {
        const times = [];
        let bytes = 0;
        for (let round = 0; round < rounds; round++) {
          const { ms, result } = await timedScript(executor, capture(side));
          times.push(ms);
          bytes = Buffer.from(result.images?.[0]?.data ?? "", "base64").length;
        }
        rows.push({
          metric: `capture script ${side}² PNG (${way}; ${Math.round(bytes / 1024)} KiB), median of ${rounds} vs a one data.set script`,
          ours: median(times),
          baseline: median(baseline),
          unit: "ms",
        });
      }
      log(`captured in window mode ${window}`);
    } finally {
      await executor.close();
    }
  } finally {
    await adapter.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
  return rows;
}

/** The host's side of a capture file, 445 KiB (a 1024² PNG), against a plain read and unlink. */
async function hostFileRows() {
  const parent = mkdtempSync(join(tmpdir(), "dcc-blender-capture-file-bench-"));
  const bytes = Buffer.alloc(445 * 1024, 7);
  const rounds = 200;
  try {
    const checked = [];
    const plain = [];
    for (let round = 0; round < rounds; round++) {
      let begin = performance.now();
      const file = await createCaptureFile(parent, ".png");
      await writeFile(file.path, bytes); // Blender's part
      await readCaptureFile(file, { command: "bench" });
      await removeCaptureFile(file);
      checked.push(performance.now() - begin);
      begin = performance.now();
      const path = join(parent, `dcc-capture-${round}.png`);
      await writeFile(path, bytes);
      await readFile(path);
      await unlink(path);
      plain.push(performance.now() - begin);
    }
    return [
      {
        metric: `capture file 445 KiB: host creates, checks, reads and removes it, median of ${rounds} vs write, readFile and unlink`,
        ours: median(checked),
        baseline: median(plain),
        unit: "ms",
      },
    ];
  } finally {
    rmSync(parent, { recursive: true, force: true });
  }
}

/** Rows for the capture figures, or one row saying why the Blender ones were skipped. */
export async function runCaptureBench({ log, remainingMs = Number.POSITIVE_INFINITY }) {
  const rows = await hostFileRows();
  if (spawnSync("blender", ["--version"], { timeout: 60_000 }).status !== 0) {
    return [...rows, { metric: "capture figures (skipped: no Blender)", unit: "" }];
  }
  if (remainingMs < 30_000) {
    return [...rows, { metric: "capture figures (skipped: bench time budget)", unit: "" }];
  }
  rows.push(...(await modeRows("none", log)));
  // Under Xvfb every call waits for a software-GL window redraw (about 2 s here): those rows
  // take a minute or more, past the bench's budget, so they run only when asked for.
  if (process.env["DCC_BENCH_CAPTURE_XVFB"] !== "1") {
    rows.push({ metric: "capture under Xvfb (set DCC_BENCH_CAPTURE_XVFB=1 to run)", unit: "" });
  } else if (spawnSync("xvfb-run", ["--help"], { timeout: 10_000 }).error !== undefined) {
    rows.push({ metric: "capture under Xvfb (skipped: no xvfb-run)", unit: "" });
  } else {
    rows.push(...(await modeRows("xvfb", log)));
  }
  return rows;
}
