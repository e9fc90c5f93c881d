// A stand-in for a test worker, for the leftovers test: starts real Blenders the ways the suites
// do (launched headless and under Xvfb, sandboxed or not, and an interactive one under Xvfb as
// the attach tests start it), prints one JSON line with their pids, then idles until it is
// killed (by SIGKILL, so it can clean up nothing). Argument 1 is a folder for their files.
// Run with `node --conditions=@dcc/source --import tsx worker-like-parent.ts <folder>`.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { spawnTied } from "@dcc/test-support";
import { createBlenderAdapter } from "../../src/index.ts";

const folder = process.argv[2] as string;
const dataDir = join(folder, "data");
mkdirSync(dataDir, { recursive: true });
const launched = [
  createBlenderAdapter({ dataDir, window: "none", sandbox: "off" }),
  createBlenderAdapter({ dataDir, window: "xvfb", sandbox: "off" }),
  // Sandboxed where the suite's Blender can be (not one inside a Debian root, see bwrap-available).
  createBlenderAdapter({
    dataDir,
    window: "xvfb",
    ...(process.env["DCC_BLENDER_TEST_SANDBOX"] === "off" ? { sandbox: "off" as const } : {}),
  }),
];
const context = { signal: AbortSignal.timeout(240_000), reportHost: () => undefined };
await Promise.all(launched.map((adapter) => adapter.start?.(context)));
const blender = process.env["BLENDER_BIN"] ?? "blender";
const interactive = spawnTied("xvfb-run", ["-a", blender, "--factory-startup", "-noaudio"], {
  env: { ...process.env, TMPDIR: folder },
  stdio: "ignore",
  tree: true,
});
process.stdout.write(
  `${JSON.stringify({ launched: launched.map((adapter) => adapter.pid), interactive: interactive.pid })}\n`,
);
setInterval(() => undefined, 60_000);
