// A parent for the spawn-tied test: ties a command to itself, prints the tied child's pid as
// one JSON line, then idles until it is killed. `exec`: a sleep, tied in place; `tree`: the same
// under the reaper; `tree-group`: under the reaper, a shell that starts a sleep in the
// background and one that leaves its process group (as xvfb-run's X server or a daemon would).
// Run with `node --conditions=@dcc/source --import tsx tied-parent.ts <how>`.
import { spawnTied } from "../index.ts";

const how = process.argv[2];
const child =
  how === "tree-group"
    ? spawnTied("/bin/sh", ["-c", "sleep 600 & setsid sleep 601 & sleep 602"], {
        stdio: "ignore",
        tree: true,
        graceMs: 1000,
      })
    : spawnTied("sleep", ["603"], { stdio: "ignore", tree: how === "tree" });
process.stdout.write(`${JSON.stringify({ reaper: child.pid })}\n`);
setInterval(() => undefined, 60_000);
