// Hosts started by hand with a known token, for raw-socket tests of the Python side and for
// LinkClient tests without DccProcess.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { terminateProcess } from "@dcc/cancel";
import type { LinkEndpoint } from "../link-endpoint.ts";
import { linkPythonPath } from "../python-path.ts";
import { python, pythonArgs, testHostScript } from "./python.ts";

/** A host started by hand. */
export interface RawHost {
  readonly child: ChildProcess;
  readonly endpoint: LinkEndpoint;
  readonly token: string;
  readonly dir: string;
}

/** Options of {@link startRawHost}. */
export interface RawHostOptions {
  loop?: "blocking" | "pump";
  transport?: "unix" | "tcp";
  env?: Record<string, string>;
}

const started: RawHost[] = [];

/** Spawns `test_host.py` with a known token and waits for its ready line. */
export async function startRawHost(options: RawHostOptions = {}): Promise<RawHost> {
  const dir = mkdtempSync(join(tmpdir(), "dcc-link-test-"));
  const token = "test-token-0123456789abcdef0123456789";
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PYTHONPATH: linkPythonPath(),
    PYTHONDONTWRITEBYTECODE: "1",
    DCC_LINK_TOKEN: token,
    ...options.env,
  };
  if (options.transport === "tcp") env["DCC_LINK_TCP_PORT"] = "0";
  else env["DCC_LINK_SOCKET"] = join(dir, "link.sock");
  const child = spawn(python, [...pythonArgs, testHostScript, options.loop ?? "blocking"], {
    env,
    stdio: ["ignore", "pipe", "ignore"],
  });
  const host = { child, token, dir, endpoint: undefined as unknown as LinkEndpoint };
  started.push(host);
  let text = "";
  child.stdout?.setEncoding("utf8");
  for await (const chunk of child.stdout as AsyncIterable<string>) {
    text += chunk;
    const match = /DCC_LINK_READY (\{.*\})\n/.exec(text);
    if (match) {
      host.endpoint = (JSON.parse(match[1] as string) as { endpoint: LinkEndpoint }).endpoint;
      child.stdout?.resume();
      return host;
    }
  }
  throw new Error(`test host exited before it was ready: ${text}`);
}

/** Ends every raw host and removes its folder. */
export async function closeRawHosts(): Promise<void> {
  for (const host of started.splice(0)) {
    await terminateProcess(host.child, { graceMs: 2000 });
    rmSync(host.dir, { recursive: true, force: true });
  }
}
