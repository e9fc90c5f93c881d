// Per Blender version (the host's, and each Debian root of tooling/blender-roots built for this
// checkout): the adapter's start-to-ready beside a bare `blender -b` start-to-exit of the same
// Blender; and the first-launch catalog generation of an untested build (the operator list, every
// operator's RNA read from the running Blender, the catalog data built and cached) beside a later
// launch of the same build, which finds it in the cache.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createBlenderAdapter, createBlenderCatalog } from "@dcc/blender";
import { discoverOperators } from "../dist/internal/discover-operators.js";

// The launchers tooling/blender-roots/build-root.sh wrote into this checkout.
const launchers = join(import.meta.dirname, "..", "..", "..", "tooling", "blender-roots", ".bin");

/** The Blenders to measure: the host's (sandbox auto), then each root's launcher (sandbox off). */
function blenders() {
  const found = [];
  if (spawnSync("blender", ["--version"], { timeout: 60_000 }).status === 0) {
    found.push({ bin: "blender", sandbox: "auto" });
  }
  for (const suite of ["trixie", "sid"]) {
    const launcher = join(launchers, `blender-${suite}`);
    if (existsSync(launcher)) found.push({ bin: launcher, sandbox: "off" });
  }
  return found;
}

function bareStartMs(bin) {
  const begin = performance.now();
  const result = spawnSync(bin, ["-b", "--factory-startup", "--python-expr", "pass"], {
    timeout: 180_000,
  });
  if (result.status !== 0) throw new Error(`${bin} -b exited with ${result.status}`);
  return performance.now() - begin;
}

/** Runs the per-version rows; skips what it has no time for. */
export async function runVersionsBench({ log, remainingMs }) {
  const rows = [];
  const deadline = performance.now() + remainingMs;
  for (const { bin, sandbox } of blenders()) {
    if (performance.now() > deadline - 20_000) {
      log(`no time left for ${bin}`);
      break;
    }
    const dataDir = mkdtempSync(join(tmpdir(), "dcc-bench-version-data-"));
    const cacheDir = mkdtempSync(join(tmpdir(), "dcc-bench-version-cache-"));
    const adapter = createBlenderAdapter({ dataDir, blenderBin: bin, sandbox, cacheDir });
    try {
      const bare = bareStartMs(bin);
      const begin = performance.now();
      await adapter.start({ signal: AbortSignal.timeout(180_000), reportHost: () => {} });
      const ready = performance.now() - begin;
      const version = adapter.operators?.blender ?? "?";
      const call = (method) => adapter.call(method);
      let started = performance.now();
      const generated = await discoverOperators({ call, cacheDir, ignoreTested: true });
      createBlenderCatalog({ operators: generated.data }).search("sphere");
      const generation = performance.now() - started;
      started = performance.now();
      const cached = await discoverOperators({ call, cacheDir });
      createBlenderCatalog({ operators: cached.data }).search("sphere");
      const later = performance.now() - started;
      log(
        `Blender ${version}: ready in ${Math.round(ready)} ms, generation ${Math.round(generation)} ms`,
      );
      rows.push(
        {
          metric: `Blender ${version}: adapter start-to-ready (sandbox ${sandbox}; baseline: bare blender -b start-to-exit)`,
          ours: ready,
          baseline: bare,
          unit: "ms",
        },
        {
          metric: `Blender ${version}: first-launch catalog generation, ${generated.data.operators.length} operators (baseline: a later launch, ${cached.source})`,
          ours: generation,
          baseline: later,
          unit: "ms",
          goal: "< 10 s",
          pass: generation < 10_000,
        },
      );
    } finally {
      await adapter.close();
      rmSync(dataDir, { recursive: true, force: true });
      rmSync(cacheDir, { recursive: true, force: true });
    }
  }
  return rows;
}
