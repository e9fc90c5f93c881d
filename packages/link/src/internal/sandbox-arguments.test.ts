import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { installFolder, sandboxArguments } from "./sandbox-arguments.ts";

const root = mkdtempSync(join(tmpdir(), "dcc-sandbox-args-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** The `[flag, source, target]` triples of one flag, in order. */
function binds(args: readonly string[], flag: string): [string, string][] {
  const found: [string, string][] = [];
  args.forEach((arg, index) => {
    if (arg === flag) found.push([args[index + 1] as string, args[index + 2] as string]);
  });
  return found;
}

const base = {
  command: "/usr/bin/env",
  args: ["python3", "-c", "pass"],
  readOnly: [],
  readWrite: [],
  shareNet: false,
  cwd: "/usr",
};

describe("sandboxArguments", () => {
  it("unshares every namespace, drops capabilities, dies with its parent, runs the command last", () => {
    const args = sandboxArguments(base);
    expect(args.slice(0, 6)).toEqual([
      "--unshare-all",
      "--die-with-parent",
      "--new-session",
      "--cap-drop",
      "ALL",
      "--ro-bind",
    ]);
    expect(args).not.toContain("--share-net");
    expect(args.slice(args.indexOf("--"))).toEqual(["--", "/usr/bin/env", "python3", "-c", "pass"]);
  });

  it("shares the network only when asked (a link over loopback TCP)", () => {
    expect(sandboxArguments({ ...base, shareNet: true })).toContain("--share-net");
  });

  it("shows the system read-only and nothing of the host's own files", () => {
    const args = sandboxArguments(base);
    const readOnly = binds(args, "--ro-bind").map(([source]) => source);
    expect(readOnly).toContain("/usr");
    expect(readOnly).toContain("/etc/ld.so.cache");
    for (const hidden of ["/", "/etc", "/home", "/root", "/tmp", "/etc/shadow", "/etc/ssh"]) {
      expect(readOnly).not.toContain(hidden);
    }
    expect(binds(args, "--bind")).toEqual([]);
    // /tmp and /var/tmp are fresh and empty; /dev is minimal, /proc the sandbox's own.
    expect(args.join(" ")).toContain("--dev /dev --proc /proc --tmpfs /tmp --tmpfs /var/tmp");
  });

  it("binds the given folders after /tmp's tmpfs, a parent before what is inside it", () => {
    const data = join(root, "data");
    const scripts = join(data, "scripts");
    mkdirSync(scripts, { recursive: true });
    const session = join(root, "session");
    mkdirSync(session);
    const args = sandboxArguments({
      ...base,
      readOnly: [scripts, join(root, "missing")],
      readWrite: [session, data],
    });
    const tmpfs = args.indexOf("/tmp", args.indexOf("--tmpfs"));
    const at = (target: string): number => args.lastIndexOf(target);
    expect(binds(args, "--bind")).toEqual([
      [session, session],
      [data, data],
    ]);
    expect(binds(args, "--ro-bind")).toContainEqual([scripts, scripts]);
    expect(at(session)).toBeGreaterThan(tmpfs);
    expect(at(scripts)).toBeGreaterThan(at(data));
    expect(args.join(" ")).not.toContain("missing");
  });

  it("binds a path given through a symbolic link at its real place and at the given one", () => {
    const real = join(root, "real-data");
    const link = join(root, "linked-data");
    mkdirSync(real);
    symlinkSync(real, link);
    expect(binds(sandboxArguments({ ...base, readWrite: [link] }), "--bind")).toEqual([
      [real, real],
      [real, link],
    ]);
  });

  it("shows a working folder read-only only when nothing else shows it", () => {
    const cwd = join(root, "cwd");
    mkdirSync(cwd);
    const args = sandboxArguments({ ...base, cwd });
    expect(binds(args, "--ro-bind")).toContainEqual([cwd, cwd]);
    expect(args.slice(args.indexOf("--chdir"), args.indexOf("--chdir") + 2)).toEqual([
      "--chdir",
      cwd,
    ]);
    const inside = sandboxArguments({ ...base, cwd, readWrite: [root] });
    expect(binds(inside, "--ro-bind")).not.toContainEqual([cwd, cwd]);
  });

  it("shows the install folder of a command outside /usr: the prefix above bin/, else its folder", () => {
    const prefix = join(root, "opt-python");
    mkdirSync(join(prefix, "bin"), { recursive: true });
    writeFileSync(join(prefix, "bin", "python9"), "", { mode: 0o755 });
    const tarball = join(root, "blender-9");
    mkdirSync(tarball);
    writeFileSync(join(tarball, "blender"), "", { mode: 0o755 });
    expect(installFolder(join(prefix, "bin", "python9"))).toBe(prefix);
    expect(installFolder(join(tarball, "blender"))).toBe(tarball);
    const args = sandboxArguments({ ...base, command: join(tarball, "blender") });
    expect(binds(args, "--ro-bind")).toContainEqual([tarball, tarball]);
  });
});
