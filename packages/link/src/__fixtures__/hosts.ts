// Test hosts launched through DccProcess: `test_host.py` under plain python3.
import { dirname } from "node:path";
import { DccProcess } from "../dcc-process.ts";
import type { DccProcessOptions } from "../dcc-process-options.ts";
import { python, pythonArgs, testHostScript } from "./python.ts";

/** Options of {@link startTestHost}: DccProcess options plus the test host's loop style. */
export type TestHostOptions = Partial<DccProcessOptions> & { loop?: "blocking" | "pump" };

const launched: DccProcess[] = [];

/** Starts `test_host.py` through DccProcess (heartbeat off unless asked for). */
export async function startTestHost(options: TestHostOptions = {}): Promise<DccProcess> {
  const { loop = "blocking", link, sandboxPaths, ...rest } = options;
  const host = new DccProcess({
    command: python,
    args: [...pythonArgs, testHostScript, loop],
    readyTimeoutMs: 30_000,
    terminateGraceMs: 2000,
    ...rest,
    // The test host sits beside this file; in the sandbox (on by default) it must be visible.
    sandboxPaths: {
      ...sandboxPaths,
      readOnly: [dirname(testHostScript), ...(sandboxPaths?.readOnly ?? [])],
    },
    link: { heartbeat: false, ...link },
  });
  launched.push(host);
  await host.start();
  return host;
}

/** Closes every host {@link startTestHost} started. */
export async function closeTestHosts(): Promise<void> {
  await Promise.all(launched.splice(0).map((host) => host.close()));
}
