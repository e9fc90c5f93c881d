// A parent process for the watchdog test: starts the test host through DccProcess, prints its
// pid and session folder as one JSON line, then idles until it is killed (by SIGKILL, so it can
// clean up nothing). With "busy", the host is first put into a call that never checks for
// cancellation. A fourth argument `sandbox` runs the host in the OS sandbox (else it runs
// without, as the Python watchdog is what is tested then), a fifth is the session folders' base.
// Run with `node --conditions=@dcc/source --import tsx watchdog-parent.ts`.
import { startTestHost } from "./hosts.ts";

const loop = process.argv[2] === "pump" ? "pump" : "blocking";
let sleeping: () => void = () => undefined;
const asleep = new Promise<void>((resolve) => {
  sleeping = resolve;
});
const host = await startTestHost({
  loop,
  sandbox: process.argv[4] === "sandbox" ? "on" : "off",
  baseDir: process.argv[5],
  onOutput: (text) => {
    if (text.includes("SLEEPING")) sleeping();
  },
});
if (process.argv[3] === "busy") {
  host
    .call("sleep", { seconds: 600, announce: true }, { timeoutMs: 600_000 })
    .catch(() => undefined);
  await asleep;
}
process.stdout.write(`${JSON.stringify({ pid: host.pid, sessionDir: host.sessionDir })}\n`);
setInterval(() => undefined, 60_000);
