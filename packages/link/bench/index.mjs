// Benchmark of @dcc/link against the BUILT package: the round trip of a no-op call to the
// link's Python side (blocking loop, and pump loop), beside a bare node:net echo of a frame of
// the same size to a bare Python selectors loop on the same kind of socket, measured in the
// same run. The gap is what the link adds: JSON, ids, deadlines, the dispatch table.
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { DccProcess, linkPythonPath } from "@dcc/link";

const here = fileURLToPath(new URL(".", import.meta.url));
const warmup = 300;
const samples = 3000;

const percentile = (sorted, p) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

/**
 * Times `count` rounds of `ours()` and `baseline()`, alternating so both see the same machine
 * load; returns both sorted lists, in µs.
 */
async function timeInterleaved(count, ours, baseline) {
  const clock = async (once) => {
    const started = process.hrtime.bigint();
    await once();
    return Number(process.hrtime.bigint() - started) / 1000;
  };
  for (let index = 0; index < warmup; index++) {
    await ours();
    await baseline();
  }
  const times = { ours: [], baseline: [] };
  for (let index = 0; index < count; index++) {
    times.ours.push(await clock(ours));
    times.baseline.push(await clock(baseline));
  }
  times.ours.sort((a, b) => a - b);
  times.baseline.sort((a, b) => a - b);
  return times;
}

/** A frame like the link's no-op call, echoed by echo_server.py. */
function echoFrame() {
  const body = Buffer.from('{"type":"call","id":123,"method":"noop","params":{}}');
  const header = Buffer.alloc(4);
  header.writeUInt32BE(body.length);
  return Buffer.concat([header, body]);
}

/** Starts echo_server.py and connects to it; `once()` is one echoed frame. */
async function startEcho(python, transport, dir) {
  const env = { ...process.env };
  if (transport === "unix") env.DCC_LINK_SOCKET = join(dir, "echo.sock");
  const child = spawn(python, ["-S", join(here, "echo_server.py")], {
    env,
    stdio: ["ignore", "pipe", "inherit"],
  });
  let text = "";
  child.stdout.setEncoding("utf8");
  for await (const chunk of child.stdout) {
    text += chunk;
    if (text.includes("\n")) break;
  }
  const endpoint = JSON.parse(text.slice(text.indexOf(" ") + 1));
  const socket =
    endpoint.kind === "unix"
      ? connect({ path: endpoint.path })
      : connect({ host: endpoint.host, port: endpoint.port, noDelay: true });
  await new Promise((resolve, reject) => socket.once("connect", resolve).once("error", reject));
  const frame = echoFrame();
  let waiting;
  let received = 0;
  socket.on("data", (chunk) => {
    received += chunk.length;
    if (received >= frame.length) {
      received -= frame.length;
      waiting();
    }
  });
  const once = () =>
    new Promise((resolve) => {
      waiting = resolve;
      socket.write(frame);
    });
  const stop = () => {
    socket.destroy();
    child.kill("SIGKILL");
  };
  return { once, stop };
}

async function measure(python, transport, loop) {
  const dir = mkdtempSync(join(tmpdir(), "dcc-link-bench-"));
  let echo;
  let host;
  try {
    echo = await startEcho(python, transport, dir);
    host = await DccProcess.start({
      command: python,
      args: ["-S", join(here, "noop_host.py"), loop],
      transport,
      link: { heartbeat: false },
      // Like its baseline, the bare echo server: the link's own cost, not the OS sandbox's.
      sandbox: "off",
    });
    return await timeInterleaved(samples, () => host.call("noop"), echo.once);
  } finally {
    // Also when a start failed: nothing of the measurement is left behind.
    await host?.close();
    echo?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** @param {{ log: (line: string) => void }} context */
export async function run({ log }) {
  const python = execFileSync("python3", ["-c", "import sys; print(sys.executable)"], {
    encoding: "utf8",
  }).trim();
  log(`python: ${python}; dcc_link from ${linkPythonPath()}`);
  const rows = [];
  for (const [transport, loop] of [
    ["unix", "blocking"],
    ["tcp", "blocking"],
    ["unix", "pump"],
  ]) {
    const times = await measure(python, transport, loop);
    for (const p of [50, 99]) {
      const metric = `no-op call round trip p${p} (${transport}, ${loop} loop) vs bare echo`;
      const value = percentile(times.ours, p);
      const base = percentile(times.baseline, p);
      log(`${metric}: ${value.toFixed(0)} µs (echo ${base.toFixed(0)} µs)`);
      rows.push({ metric, ours: value, baseline: base, unit: "µs" });
    }
  }
  return rows;
}
