import { type ChildProcess, spawn } from "node:child_process";
import type { Socket } from "node:net";
import { delimiter, resolve } from "node:path";
import { DccLaunchError } from "../dcc-launch-error.ts";
import type { DccProcessOptions } from "../dcc-process-options.ts";
import { dccSandboxMode } from "../dcc-sandbox-mode.ts";
import { dccSandboxSupport, noticeSandboxOff } from "../dcc-sandbox-support.ts";
import { LinkClient } from "../link-client.ts";
import { assertLoopbackEndpoint, type LinkEndpoint } from "../link-endpoint.ts";
import { linkPythonPath } from "../python-path.ts";
import { searchExecutable } from "../search-executable.ts";
import { endHost } from "./end-host.ts";
import { ProcessOutput } from "./process-output.ts";
import { sandboxArguments } from "./sandbox-arguments.ts";
import {
  addSessionOwner,
  createLaunchToken,
  createSessionFolder,
  removeSessionFolder,
  type SessionFolder,
  sweepStaleSessionFolders,
  writeTokenFile,
} from "./session-folder.ts";

const readyPrefix = "DCC_LINK_READY";
/** The host's end of the watchdog pipe. */
const watchdogFd = 3;

/** One running host process and its link. */
export interface HostInstance {
  readonly child: ChildProcess;
  readonly session: SessionFolder;
  readonly link: LinkClient;
  readonly output: ProcessOutput;
  /** Whether it runs in the OS sandbox. */
  readonly sandboxed: boolean;
  /** Resolves once the process has exited, its link is closed and its folder removed. */
  readonly gone: Promise<void>;
}

/** The environment of a launch: ours minus any `DCC_LINK_*`, the caller's, then the link's. */
function hostEnvironment(
  options: DccProcessOptions,
  session: SessionFolder,
  token: string,
  sandboxed: boolean,
): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (!name.startsWith("DCC_LINK_")) env[name] = value;
  }
  Object.assign(env, options.env);
  const pythonPath = linkPythonPath();
  Object.assign(env, {
    TMPDIR: session.tmpDir,
    TMP: session.tmpDir,
    TEMP: session.tmpDir,
    PYTHONPATH: env["PYTHONPATH"] ? `${pythonPath}${delimiter}${env["PYTHONPATH"]}` : pythonPath,
    PYTHONDONTWRITEBYTECODE: env["PYTHONDONTWRITEBYTECODE"] ?? "1",
    DCC_LINK_PYTHON_PATH: pythonPath,
    DCC_LINK_WATCHDOG_FD: String(watchdogFd),
    DCC_LINK_MAX_FRAME_BYTES: String(options.maxFrameBytes ?? 16 * 1024 * 1024),
    DCC_LINK_AUTH_TIMEOUT_MS: String(options.authTimeoutMs ?? 5000),
  });
  // The host's watchdog removes the folder if Node dies. Not in the sandbox: there the folder is
  // a mount point (its contents would go, marker included, but not the folder) and the host is
  // killed with Node anyway; the next launch's sweep removes it.
  if (!sandboxed) env["DCC_LINK_SESSION_DIR"] = session.dir;
  if (options.transport === "tcp") env["DCC_LINK_TCP_PORT"] = "0";
  else env["DCC_LINK_SOCKET"] = session.socketPath;
  if (options.tokenVia === "file") env["DCC_LINK_TOKEN_FILE"] = session.tokenFile;
  else env["DCC_LINK_TOKEN"] = token;
  return env;
}

/** Reads the ready line's endpoint and checks it is the one this launch allows. */
function readyEndpoint(
  json: string,
  options: DccProcessOptions,
  session: SessionFolder,
): LinkEndpoint {
  const ready = JSON.parse(json) as { endpoint?: LinkEndpoint };
  const endpoint = ready.endpoint;
  if (endpoint === undefined || typeof endpoint !== "object") throw new Error("no endpoint");
  const wanted = options.transport === "tcp" ? "tcp" : "unix";
  if (endpoint.kind !== wanted) throw new Error(`a ${endpoint.kind} endpoint, not ${wanted}`);
  if (endpoint.kind === "unix" && endpoint.path !== session.socketPath) {
    throw new Error(`a socket at ${endpoint.path}, not in its session folder`);
  }
  assertLoopbackEndpoint(endpoint);
  return endpoint;
}

/**
 * The bwrap to run the host in, or undefined to run it bare: `off`, or `auto` where the sandbox
 * cannot run (said once). @throws {DccLaunchError} `SANDBOX_UNAVAILABLE` for `on` there.
 */
async function chooseSandbox(options: DccProcessOptions): Promise<string | undefined> {
  const mode = dccSandboxMode(options.sandbox);
  if (mode === "off") return undefined;
  const support = await dccSandboxSupport(options.sandboxProgram);
  if (support.available) return support.bwrap;
  if (mode === "on") {
    throw new DccLaunchError({
      code: "SANDBOX_UNAVAILABLE",
      message: `${options.command} was not started: sandbox is "on" but ${support.reason}`,
    });
  }
  noticeSandboxOff(support.reason);
  return undefined;
}

/** The command and arguments to spawn: the host's own, or bwrap around them. */
function spawnCommand(
  options: DccProcessOptions,
  session: SessionFolder,
  env: NodeJS.ProcessEnv,
  bwrap: string | undefined,
): { command: string; args: string[] } {
  const args = [...(options.args ?? [])];
  if (bwrap === undefined) return { command: options.command, args };
  const { found } = searchExecutable(options.command, { path: env["PATH"] });
  if (found === undefined) throw new Error(`${options.command} was not found`);
  const layout = {
    command: resolve(found),
    args,
    readOnly: [linkPythonPath(), ...(options.sandboxPaths?.readOnly ?? [])],
    readWrite: [session.dir, ...(options.sandboxPaths?.readWrite ?? [])],
    // Loopback TCP needs the host's network namespace; the Unix socket (default) does not.
    shareNet: options.transport === "tcp",
    cwd: options.cwd === undefined ? session.tmpDir : resolve(options.cwd),
  };
  return { command: bwrap, args: sandboxArguments(layout) };
}

/**
 * Spawns the host with the link's environment and a watchdog pipe (in the OS sandbox unless it
 * is off or cannot run), waits (bounded) for its ready line, connects the link, and returns the
 * instance. Before that, session folders left by killed launches are swept. On any failure the
 * process is ended and the folder removed before the {@link DccLaunchError} is thrown.
 */
export async function launchHost(options: DccProcessOptions): Promise<HostInstance> {
  const bwrap = await chooseSandbox(options);
  await sweepStaleSessionFolders(options.baseDir);
  const session = await createSessionFolder(options.baseDir);
  const token = createLaunchToken();
  let child: ChildProcess;
  try {
    if (options.tokenVia === "file") await writeTokenFile(session, token);
    const env = hostEnvironment(options, session, token, bwrap !== undefined);
    const { command, args } = spawnCommand(options, session, env, bwrap);
    child = spawn(command, args, {
      cwd: options.cwd,
      env,
      // fd 3 is the watchdog: we hold the other end and never write; our death closes it.
      stdio: ["ignore", "pipe", "pipe", "pipe"],
      detached: options.processGroup === true,
    });
  } catch (error) {
    await removeSessionFolder(session);
    throw new DccLaunchError({
      code: "LAUNCH_FAILED",
      message: `Could not start ${options.command}`,
      cause: error,
    });
  }
  // Writing the watchdog's notice to a host that just died must not crash this process.
  (child.stdio[watchdogFd] as Socket | null)?.on("error", () => undefined);
  const output = new ProcessOutput(child, options.outputTailChars ?? 16_384, options.onOutput);
  const ready = output.readyLine(readyPrefix);
  let link: LinkClient | undefined;
  const exited = new Promise<string>((resolve) => {
    child.once("exit", (code, signal) =>
      resolve(signal === null ? `exit code ${code}` : `signal ${signal}`),
    );
    child.once("error", (error) => {
      if (child.pid === undefined) resolve(`spawn error: ${error.message}`);
    });
  });
  const gone = exited.then(async (how) => {
    await link?.close({ code: "HOST_GONE", message: `The host process ended (${how})` });
    (child.stdio[watchdogFd] as Socket | null)?.destroy();
    await removeSessionFolder(session);
  });
  const fail = async (
    code: DccLaunchError["code"],
    message: string,
    cause?: unknown,
  ): Promise<never> => {
    if (child.pid !== undefined) {
      const group = options.processGroup === true;
      await endHost(child, { graceMs: options.terminateGraceMs ?? 5000, group });
    }
    await gone;
    await output.drained(2000);
    // The DCC's own words usually say why (a missing library, a bad argument, a traceback).
    const said = output.lastLines();
    const told =
      said === "" ? `${message}; it printed nothing` : `${message}; its last output:\n${said}`;
    throw new DccLaunchError({
      code,
      message: told,
      cause,
      exitCode: child.exitCode,
      signalCode: child.signalCode,
      output: output.tail,
    });
  };
  // A later launch's sweep keeps the folder while either owner lives.
  if (child.pid !== undefined) await addSessionOwner(session, child.pid).catch(() => undefined);
  const readyTimeoutMs = options.readyTimeoutMs ?? 60_000;
  let timer: NodeJS.Timeout | undefined;
  const outcome = await Promise.race([
    ready.then((json) => ({ json })),
    exited.then((how) => ({ exited: how })),
    new Promise<{ timeout: true }>((resolve) => {
      timer = setTimeout(() => resolve({ timeout: true }), readyTimeoutMs);
    }),
  ]);
  clearTimeout(timer);
  if ("exited" in outcome)
    return fail(
      "LAUNCH_FAILED",
      `${options.command} ended before it was ready (${outcome.exited})`,
    );
  if ("timeout" in outcome)
    return fail(
      "READY_TIMEOUT",
      `${options.command} printed no ready line in ${readyTimeoutMs} ms`,
    );
  let endpoint: LinkEndpoint;
  try {
    endpoint = readyEndpoint(outcome.json, options, session);
  } catch (error) {
    return fail(
      "LAUNCH_FAILED",
      `${options.command} announced an unusable endpoint: ${String(error)}`,
      error,
    );
  }
  link = new LinkClient({ ...options.link, endpoint, token, maxFrameBytes: options.maxFrameBytes });
  try {
    await link.connect();
  } catch (error) {
    return fail(
      "LAUNCH_FAILED",
      `Could not connect to ${options.command}: ${String(error)}`,
      error,
    );
  }
  return { child, session, link, output, sandboxed: bwrap !== undefined, gone };
}
