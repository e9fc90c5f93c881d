import { existsSync, lstatSync, readlinkSync, realpathSync } from "node:fs";
import { basename, dirname, isAbsolute, resolve, sep } from "node:path";

/** What one sandboxed launch sees and runs. */
export interface SandboxLayout {
  /** The executable, absolute (its install folder is shown read-only). */
  readonly command: string;
  readonly args: readonly string[];
  /** Host paths shown read-only at the same place. */
  readonly readOnly: readonly string[];
  /** Host paths shown writable at the same place (the session and data folders). */
  readonly readWrite: readonly string[];
  /** Keep the host's network namespace: only for a link over loopback TCP. */
  readonly shareNet: boolean;
  /** Working directory inside (shown read-only when it is not already visible). */
  readonly cwd: string;
}

/** Top-level folders of the system: the merged-/usr links or, on older layouts, folders. */
const systemRoots = ["/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"];

/**
 * What of `/etc` a DCC needs: the loader, fonts, alternatives, user names and the time zone.
 * Nothing with secrets (shadow, ssl keys, ssh, credentials of services) and nothing of the
 * network (resolv.conf, hosts): the sandbox has none.
 */
const etcEntries = [
  "alternatives",
  "fonts",
  "glvnd",
  "group",
  "ld.so.cache",
  "ld.so.conf",
  "ld.so.conf.d",
  "locale.alias",
  "localtime",
  "mime.types",
  "nsswitch.conf",
  "os-release",
  "passwd",
  "timezone",
  "X11",
];

/** Depth of a path, so that a folder is mounted before what is bound inside it. */
const depth = (path: string): number => path.split(sep).length;

/**
 * The folder a program is installed in: the prefix above `bin/` (a Python or a DCC in a
 * version manager or `/opt`, whose libraries sit beside `bin/`), else its own folder.
 */
export function installFolder(executable: string): string {
  const real = realpathSync(executable);
  const folder = dirname(real);
  return basename(folder) === "bin" ? dirname(folder) : folder;
}

/** A path as bound: absolute, the real path of the host object (binds follow no links). */
function realOrUndefined(path: string): string | undefined {
  if (!isAbsolute(path) || !existsSync(path)) return undefined;
  return realpathSync(path);
}

/** Adds `--flag source target` for each existing path, at its real place and its given one. */
function bindEach(flag: string, paths: readonly string[]): [number, string[]][] {
  const out: [number, string[]][] = [];
  for (const path of paths) {
    const real = realOrUndefined(path);
    if (real === undefined) continue;
    out.push([depth(real), [flag, real, real]]);
    const given = resolve(path);
    if (given !== real) out.push([depth(given), [flag, real, given]]);
  }
  return out;
}

/** True when `path` lies in (or is) a folder of `folders`. */
function within(path: string, folders: readonly string[]): boolean {
  return folders.some((folder) => path === folder || path.startsWith(folder + sep));
}

/**
 * The bubblewrap arguments (without the `bwrap` itself) of one launch: every namespace
 * unshared (the network kept only with `shareNet`), no capabilities, killed with its parent,
 * its own session (no terminal injection); `/usr` and the system links read-only, the chosen
 * `/etc` entries, a minimal `/dev`, its own `/proc`, a fresh tmpfs on `/tmp` and `/var/tmp`,
 * then the read-only and writable paths (a parent before what is inside it). The root is a
 * tmpfs too, so a write anywhere else succeeds into memory that goes with the sandbox.
 */
export function sandboxArguments(layout: SandboxLayout): string[] {
  const args = ["--unshare-all"];
  if (layout.shareNet) args.push("--share-net");
  args.push("--die-with-parent", "--new-session", "--cap-drop", "ALL");
  args.push("--ro-bind", "/usr", "/usr");
  for (const root of systemRoots) {
    const stat = lstatSync(root, { throwIfNoEntry: false });
    if (stat?.isSymbolicLink()) args.push("--symlink", readlinkSync(root), root);
    else if (stat?.isDirectory()) args.push("--ro-bind", root, root);
  }
  for (const entry of etcEntries) {
    const path = `/etc/${entry}`;
    if (existsSync(path)) args.push("--ro-bind", path, path);
  }
  args.push("--symlink", "../proc/self/mounts", "/etc/mtab");
  args.push("--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp", "--tmpfs", "/var/tmp");
  // What /usr already shows is not bound again.
  const readOnly = [installFolder(layout.command), ...layout.readOnly].filter(
    (path) => !within(resolve(path), ["/usr"]),
  );
  const visible = ["/usr", ...readOnly, ...layout.readWrite].flatMap(
    (path) => realOrUndefined(path) ?? [],
  );
  const cwd = realOrUndefined(layout.cwd);
  if (cwd !== undefined && !within(cwd, visible)) readOnly.push(cwd);
  const binds = [...bindEach("--ro-bind", readOnly), ...bindEach("--bind", layout.readWrite)];
  // Stable: a writable folder inside a read-only one is mounted after it, and stays writable.
  binds.sort((a, b) => a[0] - b[0]);
  for (const [, bind] of binds) args.push(...bind);
  args.push("--chdir", layout.cwd, "--", layout.command, ...layout.args);
  return args;
}
