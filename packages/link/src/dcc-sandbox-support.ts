import { execFile } from "node:child_process";
import { searchExecutable } from "./search-executable.ts";

/** Whether the OS sandbox can run here: the bwrap to use, or why not. */
export type DccSandboxSupport =
  | { readonly available: true; readonly bwrap: string }
  | { readonly available: false; readonly reason: string };

/** Hang guard of the probe; a working bwrap answers in milliseconds. */
const probeTimeoutMs = 30_000;

const probes = new Map<string, Promise<DccSandboxSupport>>();

/** `program` when given (a path, or a name on `PATH`), else `bwrap` on `PATH`, else `/usr/bin/bwrap`. */
function findBwrap(program: string | undefined): string | undefined {
  if (program !== undefined) return searchExecutable(program).found;
  return searchExecutable("bwrap").found ?? searchExecutable("/usr/bin/bwrap").found;
}

/** Runs a sandbox like the real ones once: it fails without user namespaces, for instance. */
function probe(bwrap: string): Promise<DccSandboxSupport> {
  const args = ["--unshare-all", "--die-with-parent", "--cap-drop", "ALL"];
  args.push("--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--", "true");
  return new Promise((resolve) => {
    execFile(bwrap, args, { timeout: probeTimeoutMs }, (error, _stdout, stderr) => {
      if (error === null) {
        resolve({ available: true, bwrap });
        return;
      }
      const said = stderr.trim() || error.message;
      resolve({ available: false, reason: `${bwrap} cannot create a sandbox here: ${said}` });
    });
  });
}

/**
 * Whether {@link DccProcess} can sandbox its hosts on this machine with `program` (default
 * `bwrap` on `PATH`, else `/usr/bin/bwrap`): Linux, bwrap present, and a trial sandbox that runs
 * (it fails without user namespaces, for one). Probed once per bwrap; never throws.
 * @returns `{ available: true, bwrap }`, or `{ available: false, reason }` saying why not.
 */
export function dccSandboxSupport(program?: string): Promise<DccSandboxSupport> {
  if (process.platform !== "linux") {
    const reason = `the OS sandbox needs Linux and bubblewrap (this is ${process.platform})`;
    return Promise.resolve({ available: false, reason });
  }
  const bwrap = findBwrap(program);
  if (bwrap === undefined) {
    const reason = `${program ?? "bwrap"} was not found (Debian or Ubuntu: apt-get install -y bubblewrap)`;
    return Promise.resolve({ available: false, reason });
  }
  let probed = probes.get(bwrap);
  if (probed === undefined) {
    probed = probe(bwrap);
    probes.set(bwrap, probed);
  }
  return probed;
}

const noticed = new Set<string>();

/** Says once per reason, as a process warning, that launches run without the sandbox. */
export function noticeSandboxOff(reason: string): void {
  if (noticed.has(reason)) return;
  noticed.add(reason);
  process.emitWarning(
    `DCC processes run without the OS sandbox: ${reason}. Only the host's policy guards them; pass sandbox: "off" to say this is intended, or "on" to refuse to start.`,
    { code: "DCC_SANDBOX_OFF" },
  );
}
