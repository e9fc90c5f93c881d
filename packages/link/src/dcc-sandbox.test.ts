import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { describeWithBwrap } from "./__fixtures__/bwrap-available.ts";
import { closeTestHosts, startTestHost } from "./__fixtures__/hosts.ts";
import { python, pythonArgs, testHostScript } from "./__fixtures__/python.ts";
import { processAlive, waitUntil } from "./__fixtures__/wait.ts";
import { DccLaunchError } from "./dcc-launch-error.ts";
import { DccProcess } from "./dcc-process.ts";

let outside: string; // a folder of this test that no host is given
let data: string; // the folder hosts are given writable
let secret: string;

beforeAll(() => {
  outside = mkdtempSync(join(tmpdir(), "dcc-sandbox-outside-"));
  data = mkdtempSync(join(tmpdir(), "dcc-sandbox-data-"));
  secret = join(outside, "secret.txt");
  writeFileSync(secret, "host secret");
  writeFileSync(join(data, "in.txt"), "data file");
});

afterAll(async () => {
  await closeTestHosts();
  rmSync(outside, { recursive: true, force: true });
  rmSync(data, { recursive: true, force: true });
});

/** The descendants of `pid`, from /proc. */
function descendants(pid: number): number[] {
  const parents = new Map<number, number>();
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      parents.set(Number(name), Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]));
    } catch {
      // exited meanwhile
    }
  }
  const found: number[] = [];
  const walk = (parent: number): void => {
    for (const [child, ppid] of parents) {
      if (ppid === parent) {
        found.push(child);
        walk(child);
      }
    }
  };
  walk(pid);
  return found;
}

describeWithBwrap("the OS sandbox (bubblewrap)", () => {
  it.each(["unix", "tcp"] as const)(
    "is on by default (%s socket): the host serves calls, sees only what it is given",
    async (transport) => {
      const host = await startTestHost({ transport, sandboxPaths: { readWrite: [data] } });
      expect(host.sandboxed).toBe(true);
      await expect(host.call("echo", { a: 1 })).resolves.toEqual({ a: 1 });
      // A file of the host outside the bound folders is not there at all.
      await expect(host.call("read_file", { path: secret })).resolves.toEqual({
        error: "FileNotFoundError",
      });
      await expect(host.call("read_file", { path: "/etc/shadow" })).resolves.toEqual({
        error: "FileNotFoundError",
      });
      // The data folder is readable and writable, and its writes reach the host.
      await expect(host.call("read_file", { path: join(data, "in.txt") })).resolves.toEqual({
        text: "data file",
      });
      const written = join(data, `out-${transport}.txt`);
      await expect(
        host.call("write_file", { path: written, text: "from the host" }),
      ).resolves.toEqual({ written: true });
      expect(readFileSync(written, "utf8")).toBe("from the host");
      // So is its session folder (TMPDIR).
      const info = (await host.call("info")) as { tmpdir: string };
      expect(info.tmpdir).toBe(join(host.sessionDir as string, "tmp"));
      await expect(
        host.call("write_file", { path: join(info.tmpdir, "t.txt"), text: "tmp" }),
      ).resolves.toEqual({ written: true });
    },
  );

  it("a write outside the bound folders lands in a throwaway tmpfs, never on the host", async () => {
    const host = await startTestHost();
    const name = `dcc-sandbox-escape-${process.pid}-${Date.now()}.txt`;
    const targets = [join(tmpdir(), name), join(outside, name), `/root/${name}`, `/${name}`];
    for (const path of targets) {
      const result = (await host.call("write_file", { path, text: "escaped" })) as object;
      // Into the sandbox's own tmpfs (or refused where the parent folder does not exist there).
      expect(["written", "error"]).toContain(Object.keys(result)[0]);
      expect(() => readFileSync(path)).toThrow(/ENOENT/);
    }
    // /usr is read-only.
    await expect(host.call("write_file", { path: `/usr/${name}`, text: "x" })).resolves.toEqual({
      error: "OSError",
    });
  });

  it("with the Unix socket the host has no network; with loopback TCP only the network is shared", async () => {
    const server: Server = createServer((socket) => socket.end());
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const port = (server.address() as { port: number }).port;
    try {
      const unix = await startTestHost();
      await expect(unix.call("connect", { port })).resolves.toEqual({
        error: "ConnectionRefusedError",
      });
      const tcp = await startTestHost({ transport: "tcp" });
      await expect(tcp.call("connect", { port })).resolves.toEqual({ connected: true });
      await expect(tcp.call("read_file", { path: secret })).resolves.toEqual({
        error: "FileNotFoundError",
      });
    } finally {
      server.close();
    }
  });

  it("ends a wrapper's other children with the host, and the folder goes", async () => {
    let output = "";
    const script = `sleep 600 & echo "SIDE $!"; "${python}" -S "${testHostScript}" blocking; wait`;
    const host = await startTestHost({
      command: "sh",
      args: ["-c", script],
      processGroup: true,
      terminateGraceMs: 1000,
      sandboxPaths: { readOnly: [join(python, "..", ".."), join(testHostScript, "..")] },
      onOutput: (text) => {
        output += text;
      },
    });
    expect(host.sandboxed).toBe(true);
    await expect(host.call("echo", { via: "sh" })).resolves.toEqual({ via: "sh" });
    expect(output).toMatch(/SIDE \d+/);
    const inside = descendants(host.pid as number);
    expect(inside.length).toBeGreaterThanOrEqual(3); // sandbox init, sh, sleep, python
    const sessionDir = host.sessionDir as string;
    await host.close();
    // bwrap is gone; the kernel ends its namespace's processes (SIGKILL) right after.
    await waitUntil(() => !inside.some(processAlive), "the sandbox's processes are gone");
    expect(() => readdirSync(sessionDir)).toThrow(/ENOENT/);
  });

  it('"off" runs the host as before: it sees the host\'s files', async () => {
    const host = await startTestHost({ sandbox: "off" });
    expect(host.sandboxed).toBe(false);
    await expect(host.call("read_file", { path: secret })).resolves.toEqual({
      text: "host secret",
    });
  });
});

describe("where the sandbox cannot run", () => {
  it('"on" fails the start, naming why, and leaves nothing', async () => {
    const baseDir = mkdtempSync(join(tmpdir(), "dcc-sandbox-base-"));
    try {
      const host = new DccProcess({
        command: python,
        args: [...pythonArgs, testHostScript],
        sandbox: "on",
        sandboxProgram: "/nonexistent/bwrap",
        baseDir,
      });
      const error = await host.start().catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(DccLaunchError);
      expect(error).toMatchObject({ code: "SANDBOX_UNAVAILABLE" });
      expect((error as Error).message).toMatch(/\/nonexistent\/bwrap was not found.*bubblewrap/);
      expect(readdirSync(baseDir)).toEqual([]);
      await host.close();
    } finally {
      rmSync(baseDir, { recursive: true, force: true });
    }
  });

  it('"auto" says so once, in a process warning, and runs the host without it', async () => {
    const warnings: Error[] = [];
    const listen = (warning: Error): void => {
      if ((warning as { code?: string }).code === "DCC_SANDBOX_OFF") warnings.push(warning);
    };
    process.on("warning", listen);
    try {
      const sandboxProgram = "/nonexistent/auto-bwrap";
      const first = await startTestHost({ sandboxProgram });
      const second = await startTestHost({ sandboxProgram });
      expect([first.sandboxed, second.sandboxed]).toEqual([false, false]);
      await expect(first.call("read_file", { path: secret })).resolves.toEqual({
        text: "host secret",
      });
      // Warnings are emitted on the next tick.
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings).toHaveLength(1);
      expect(warnings[0]?.message).toMatch(/without the OS sandbox.*auto-bwrap was not found/);
    } finally {
      process.off("warning", listen);
    }
  });

  it("DCC_SANDBOX sets the mode when the option is not given; a bad value is refused by name", async () => {
    const before = process.env["DCC_SANDBOX"];
    try {
      process.env["DCC_SANDBOX"] = "off";
      const host = await startTestHost();
      expect(host.sandboxed).toBe(false);
      process.env["DCC_SANDBOX"] = "sometimes";
      const refused = new DccProcess({ command: python });
      await expect(refused.start()).rejects.toThrow(
        /DCC_SANDBOX must be "auto", "on" or "off", not "sometimes"/,
      );
      await refused.close();
    } finally {
      if (before === undefined) delete process.env["DCC_SANDBOX"];
      else process.env["DCC_SANDBOX"] = before;
    }
  });

  it("an unknown mode is refused by name", async () => {
    const host = new DccProcess({ command: python, sandbox: "maybe" as "on" });
    await expect(host.start()).rejects.toThrow(
      /sandbox must be "auto", "on" or "off", not "maybe"/,
    );
    await host.close();
  });
});
