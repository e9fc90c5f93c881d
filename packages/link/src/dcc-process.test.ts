import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { closeTestHosts, startTestHost } from "./__fixtures__/hosts.ts";
import { python, pythonArgs, testHostScript } from "./__fixtures__/python.ts";
import { processAlive } from "./__fixtures__/wait.ts";
import { DccLaunchError } from "./dcc-launch-error.ts";
import { DccProcess } from "./dcc-process.ts";

afterEach(closeTestHosts);

const mode = (path: string): number => statSync(path).mode & 0o777;

describe.each([
  ["blocking", "unix"],
  ["blocking", "tcp"],
  ["pump", "unix"],
  ["pump", "tcp"],
] as const)("DccProcess (%s loop, %s socket)", (loop, transport) => {
  it("launches, connects, serves calls and leaves nothing behind after close", async () => {
    // Outside the sandbox: its pid namespace would show the host other process ids.
    const host = await startTestHost({ loop, transport, sandbox: "off" });
    const pid = host.pid as number;
    const sessionDir = host.sessionDir as string;
    expect(host.state).toBe("running");
    expect(host.link?.welcome).toMatchObject({ loop, pid, protocol: 1 });
    expect(host.link?.state).toBe("connected");
    expect(mode(sessionDir)).toBe(0o700);
    const info = (await host.call("info")) as { pid: number; ppid: number; tmpdir: string };
    expect(info).toEqual({ pid, ppid: process.pid, tmpdir: join(sessionDir, "tmp") });
    expect(mode(info.tmpdir)).toBe(0o700);
    if (transport === "unix") expect(mode(join(sessionDir, "link.sock"))).toBe(0o600);
    await host.close();
    expect(host.state).toBe("closed");
    expect(processAlive(pid)).toBe(false);
    expect(existsSync(sessionDir)).toBe(false);
  });
});

describe("the token", () => {
  it.each(["env", "file"] as const)(
    "(%s) is never on the command line, in a reply, or left in the host",
    async (tokenVia) => {
      const host = await startTestHost({ tokenVia });
      const cmdline = readFileSync(`/proc/${host.pid}/cmdline`, "utf8");
      const environ = readFileSync(`/proc/${host.pid}/environ`, "utf8");
      // The token is 43 base64url characters; none of the launch's arguments looks like one.
      expect(cmdline.split("\0").some((arg) => /^[A-Za-z0-9_-]{43}$/.test(arg))).toBe(false);
      const seen = await host.call("env", {
        names: ["DCC_LINK_TOKEN", "DCC_LINK_TOKEN_FILE", "DCC_LINK_SOCKET"],
      });
      // Read once at start-up, then removed: the host's handlers (and their children) never see it.
      expect(seen).toMatchObject({ DCC_LINK_TOKEN: null, DCC_LINK_TOKEN_FILE: null });
      expect(existsSync(join(host.sessionDir as string, "token"))).toBe(false);
      if (tokenVia === "file") expect(environ).not.toMatch(/DCC_LINK_TOKEN=/);
      else expect(environ).toMatch(/DCC_LINK_TOKEN=[A-Za-z0-9_-]{43}\0/);
    },
  );
});

describe("launch failures", () => {
  it("a host that exits before it is ready: LAUNCH_FAILED with its output, nothing left", async () => {
    const host = new DccProcess({
      command: python,
      args: [...pythonArgs, "-c", "import sys; print('bad start'); sys.exit(3)"],
    });
    const error = await host.start().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(DccLaunchError);
    expect(error).toMatchObject({ code: "LAUNCH_FAILED", exitCode: 3 });
    expect((error as DccLaunchError).output).toContain("bad start");
    expect(host.state).toBe("stopped");
    expect(host.sessionDir).toBeUndefined();
    await host.close();
  });

  it("a host that fails to start says why in the message: its last lines, bounded", async () => {
    // 500 lines of noise on stdout, then the reason on stderr: only the end is quoted.
    const script = [
      "import sys",
      "for i in range(500): print('noise line', i)",
      "sys.stdout.flush()",
      "print('Error: libGL.so.1: cannot open shared object file', file=sys.stderr)",
      "sys.exit(1)",
    ].join("\n");
    const host = new DccProcess({ command: python, args: [...pythonArgs, "-c", script] });
    const error = (await host.start().catch((caught: unknown) => caught)) as DccLaunchError;
    expect(error).toMatchObject({ code: "LAUNCH_FAILED", exitCode: 1 });
    expect(error.message).toMatch(/ended before it was ready \(exit code 1\); its last output:\n/);
    expect(error.message).toContain("Error: libGL.so.1: cannot open shared object file");
    expect(error.message).toContain("noise line 499");
    expect(error.message).not.toContain("noise line 400");
    expect(error.message.length).toBeLessThan(2400);
    await host.close();
  });

  it("a host that fails to start silently says it printed nothing", async () => {
    const host = new DccProcess({
      command: python,
      args: [...pythonArgs, "-c", "import sys; sys.exit(2)"],
    });
    const error = (await host.start().catch((caught: unknown) => caught)) as DccLaunchError;
    expect(error.message).toMatch(/\(exit code 2\); it printed nothing$/);
    await host.close();
  });

  it("a host that never prints its ready line: READY_TIMEOUT, and it is ended", async () => {
    const host = new DccProcess({
      command: python,
      args: [
        ...pythonArgs,
        "-c",
        "import os, time; print(os.getpid(), flush=True); time.sleep(60)",
      ],
      readyTimeoutMs: 2000,
      terminateGraceMs: 500,
      sandbox: "off", // the pid it prints must be this namespace's
    });
    const error = await host.start().catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: "READY_TIMEOUT" });
    const pid = Number.parseInt((error as DccLaunchError).output, 10);
    expect(processAlive(pid)).toBe(false);
    await host.close();
  });

  it("a command that does not exist: LAUNCH_FAILED", async () => {
    const host = new DccProcess({ command: "/nonexistent/dcc-binary" });
    await expect(host.start()).rejects.toMatchObject({ code: "LAUNCH_FAILED" });
    await host.close();
  });

  it("a ready line naming a socket outside the session folder is refused", async () => {
    const script =
      'import os; print(\'DCC_LINK_READY \' + \'{"endpoint": {"kind": "unix", "path": "/tmp/elsewhere.sock"}}\', flush=True); import time; time.sleep(60)';
    const host = new DccProcess({
      command: python,
      args: [...pythonArgs, "-c", script],
      terminateGraceMs: 500,
    });
    const error = await host.start().catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: "LAUNCH_FAILED" });
    expect((error as Error).message).toContain("session folder");
    await host.close();
  });

  it("a closed DccProcess does not start again", async () => {
    const host = await startTestHost();
    await host.close();
    await expect(host.start()).rejects.toThrow(/closed/);
    await expect(host.call("echo")).rejects.toMatchObject({
      code: "HOST_GONE",
      completion: "not_started",
    });
  });
});

it("finds the test host script", () => {
  expect(existsSync(testHostScript)).toBe(true);
});

describe("processGroup", () => {
  it("ends a wrapper's other children with the host (as xvfb-run's X server)", async () => {
    let output = "";
    // The wrapper starts a side process that neither reads the watchdog nor exits by itself,
    // then runs the host as its own child.
    const script = `sleep 600 & echo "SIDE $!"; "${python}" -S "${testHostScript}" blocking; wait`;
    const host = await startTestHost({
      command: "sh",
      args: ["-c", script],
      processGroup: true,
      terminateGraceMs: 1000,
      sandbox: "off", // the side process's pid must be this namespace's
      onOutput: (text) => {
        output += text;
      },
    });
    await expect(host.call("echo", { via: "sh" })).resolves.toEqual({ via: "sh" });
    const side = Number(/SIDE (\d+)/.exec(output)?.[1]);
    expect(processAlive(side)).toBe(true);
    await host.close();
    expect(processAlive(side)).toBe(false);
  });
});
