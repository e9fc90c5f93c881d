// Runs dump-operators.py inside the installed Blender and returns its JSON. Each run gets a
// private TMPDIR (and user config and scripts folders inside it, so nothing of the machine's
// Blender set-up leaks in), removed afterwards, and is bounded by a timeout. A poll() that crashes
// Blender (a signal, not a Python error) is skipped in that editor and the dump run again.

import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const script = join(dirname(fileURLToPath(import.meta.url)), "dump-operators.py");

/**
 * Polls known to crash Blender 3.4.1 ("AREA/operator"; "*" is every editor): `ui.view_drop` under
 * any area override, `view2d.scroller_activate` in an editor that was never drawn, and two more.
 */
export const KNOWN_CRASHING_POLLS = Object.freeze([
  "*/ui.view_drop",
  "*/view2d.scroller_activate",
  "OUTLINER/outliner.data_operation",
  "PROPERTIES/object.modifier_copy_to_selected",
]);

/** Most Blender runs one dump may take: each discovered crash costs one more. */
const maxRuns = 12;

/** Thrown when Blender is missing, times out, fails or keeps crashing. */
export class BlenderDumpError extends Error {
  name = "BlenderDumpError";
}

/** Runs Blender once; resolves with its exit code or signal and the tail of its output. */
function runOnce({ blender, args, timeoutMs, directory }) {
  return new Promise((resolve, reject) => {
    const env = {
      ...process.env,
      TMPDIR: directory,
      BLENDER_USER_CONFIG: join(directory, "config"),
      BLENDER_USER_SCRIPTS: join(directory, "scripts"),
      BLENDER_USER_DATAFILES: join(directory, "datafiles"),
    };
    const child = spawn(blender, args, { env, stdio: ["ignore", "pipe", "pipe"] });
    let tail = "";
    const keep = (chunk) => {
      tail = (tail + chunk.toString("utf8")).slice(-4000);
    };
    child.stdout.on("data", keep);
    child.stderr.on("data", keep);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill("SIGKILL");
    }, timeoutMs);
    child.on("error", (error) => {
      clearTimeout(timer);
      reject(new BlenderDumpError(`cannot start ${blender}: ${error.message}`, { cause: error }));
    });
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, timedOut, tail });
    });
  });
}

/**
 * Dumps every operator of the installed Blender. Options: `blender` (the executable, default
 * `$BLENDER` or `blender`), `timeoutMs` per Blender run (default 480 s), `log` for progress lines.
 * @returns {Promise<{ raw: object, runs: number, skipped: string[] }>}
 */
export async function dumpOperators(options = {}) {
  const blender = options.blender ?? process.env.BLENDER ?? "blender";
  const timeoutMs = options.timeoutMs ?? 480_000;
  const log = options.log ?? (() => {});
  const skip = [...KNOWN_CRASHING_POLLS];
  for (let run = 1; run <= maxRuns; run++) {
    const directory = mkdtempSync(join(tmpdir(), "dcc-blender-dump-"));
    try {
      for (const folder of ["config", "scripts", "datafiles"]) mkdirSync(join(directory, folder));
      const out = join(directory, "operators.json");
      const progress = join(directory, "progress.txt");
      const args = ["-b", "--factory-startup", "--disable-autoexec", "--python-exit-code", "1"];
      args.push("--python", script, "--", out, progress, ...skip);
      const result = await runOnce({ blender, args, timeoutMs, directory });
      if (result.timedOut) {
        throw new BlenderDumpError(`Blender did not finish within ${timeoutMs} ms`);
      }
      if (result.code === 0) {
        return { raw: JSON.parse(readFileSync(out, "utf8")), runs: run, skipped: skip.sort() };
      }
      // A poll that crashed Blender: skip it in that editor and run again. Anything else fails.
      const crashed = result.signal !== null || result.code === 139 || result.code === 134;
      const last = crashed ? readLastLine(progress) : undefined;
      if (last === undefined) {
        throw new BlenderDumpError(
          `Blender exited with ${result.signal ?? result.code}:\n${result.tail}`,
        );
      }
      const key = last.slice(last.indexOf("/") + 1);
      log(`poll of ${last} crashed Blender; skipping ${key}`);
      skip.push(key);
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  }
  throw new BlenderDumpError(`Blender still crashed after ${maxRuns} runs (skipped ${skip})`);
}

function readLastLine(path) {
  let text;
  try {
    text = readFileSync(path, "utf8");
  } catch {
    return undefined;
  }
  const lines = text.trimEnd().split("\n");
  const last = lines[lines.length - 1];
  return last === "" ? undefined : last;
}
