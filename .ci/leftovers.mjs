// What a CI run left behind, found by the marker every process of the run inherits
// (`DCC_CI_RUN=<mark>` in its environment) and in the run's own temporary folder (its TMPDIR,
// where the link's session folders `dcc-*`, Blender's `blender_*` and `xvfb-run.*` go). `check`
// lists both and exits 1 when there is anything; `end` ends the processes (SIGTERM, SIGKILL after
// 10 s), for a run that was interrupted. Only this run's processes and folder are touched: other
// runs on the same machine have other marks and folders.
//
//   node .ci/leftovers.mjs check|end <mark> <run-temporary-folder>
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

const [mode, mark, folder] = process.argv.slice(2);
if ((mode !== "check" && mode !== "end") || !mark || !folder) {
  console.error("usage: node .ci/leftovers.mjs check|end <mark> <run-temporary-folder>");
  process.exit(2);
}

/** This process and its ancestors (the CI script itself), which are not leftovers. */
function ancestry() {
  const mine = new Set();
  let pid = process.pid;
  while (pid > 1 && !mine.has(pid)) {
    mine.add(pid);
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      pid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
    } catch {
      break;
    }
  }
  return mine;
}

function processes() {
  const mine = ancestry();
  const found = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry) || mine.has(Number(entry))) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      if (stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) === "Z") continue;
      const environ = readFileSync(`/proc/${entry}/environ`, "latin1").split("\0");
      if (!environ.includes(`DCC_CI_RUN=${mark}`)) continue;
      const command = readFileSync(`/proc/${entry}/cmdline`, "utf8").replaceAll("\0", " ").trim();
      found.push({ pid: Number(entry), command });
    } catch {
      // Ended meanwhile, or not ours to read.
    }
  }
  return found;
}

/**
 * What DCCs, virtual displays and the link left in the run's temporary folder (caches of the
 * tools, such as tsx's, are not leftovers; the folder goes with the run either way).
 */
function entries() {
  try {
    return readdirSync(folder)
      .filter((name) => /^(dcc-|blender_|xvfb-run\.)/.test(name))
      .map((name) => join(folder, name));
  } catch {
    return [];
  }
}

function signalAll(list, signal) {
  for (const { pid } of list) {
    try {
      process.kill(pid, signal);
    } catch {
      // Already gone.
    }
  }
}

if (mode === "end") {
  let left = processes();
  if (left.length > 0) {
    console.error(`ending ${left.length} processes of this run`);
    signalAll(left, "SIGTERM");
    const deadline = Date.now() + 10_000;
    while (left.length > 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      left = processes();
    }
    signalAll(left, "SIGKILL");
  }
  process.exit(0);
}

// A process ending on its own as the run finishes gets a moment to go.
let left = processes();
for (let waited = 0; left.length > 0 && waited < 15_000; waited += 500) {
  await new Promise((resolve) => setTimeout(resolve, 500));
  left = processes();
}
const files = entries();
if (left.length === 0 && files.length === 0) {
  console.log("nothing left behind: no process of this run, nothing in its temporary folder");
  process.exit(0);
}
if (left.length > 0) {
  console.error(`${left.length} processes of this run are still running:`);
  for (const { pid, command } of left) console.error(`  ${pid} ${command.slice(0, 200)}`);
}
if (files.length > 0) {
  console.error(`${files.length} entries were left in the run's temporary folder:`);
  for (const path of files) console.error(`  ${path}`);
}
process.exit(1);
