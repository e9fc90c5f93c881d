import { homedir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import type { BlenderWindow } from "@dcc/blender";
import { type AdapterApprovalOptions, parseApprovalFlags } from "@dcc/executor";
import { FarmError, type FarmRedisOptions, farmRedisFromSettings } from "@dcc/farm";
import { type DccSandboxMode, dccSandboxMode } from "@dcc/link";
import { findMayapy, MayaNotFoundError } from "@dcc/maya";
import type { LabelledToken } from "@dcc/mcp-bridge";
import { knownAdapters, type MayaChoice } from "../adapters/known-adapters.ts";
import { checkDccNames } from "../adapters/select-adapters.ts";
import type { ReferenceAuditOptions } from "../server/reference-audit.ts";
import { AuditArgumentError, auditArguments } from "./audit-arguments.ts";
import { parseTokensVariable, readTokensFile, TokensFileError } from "./labelled-tokens.ts";
import { SessionArgumentError, type SessionBounds, sessionArguments } from "./session-arguments.ts";

/** What the command line asked for. */
export interface CliConfig {
  transport: "http" | "stdio";
  port: number;
  host: string;
  token: string | undefined;
  /** Labelled tokens from `--tokens-file`, `DCC_MCP_TOKENS_FILE` or `DCC_MCP_TOKENS`. */
  tokens?: LabelledToken[];
  /** The tokens file they came from (absolute), read again on SIGHUP. */
  tokensFile?: string;
  /** The audit log from `--audit-log`/`DCC_MCP_AUDIT_LOG` and its settings. */
  audit?: ReferenceAuditOptions;
  /** The HTTP session bounds that were set (`--max-sessions`, `--session-idle`, …), if any. */
  sessions?: SessionBounds;
  /** The farm's Redis from `--farm`/`DCC_FARM_REDIS_URL` (password from `DCC_FARM_REDIS_PASSWORD`). */
  farm?: FarmRedisOptions;
  /** The DCCs named by `--dcc` or `DCC_MCP_DCC`; undefined for the default (maya). */
  dcc: string[] | undefined;
  dataDir: string;
  scriptsDir: string;
  /** How Blender runs, from `--blender-window` or `DCC_BLENDER_WINDOW`. */
  blenderWindow: BlenderWindow;
  /** Which Maya `maya` serves, from `--maya`/`--maya-attach` (or `DCC_MAYA`, `DCC_MAYA_ATTACH`, `MAYAPY_BIN`). */
  maya: MayaChoice;
  /** `--blender-attach` or `DCC_BLENDER_ATTACH`: a connection file (absolute), `"auto"`, or none. */
  blenderAttach: string | undefined;
  /** The OS sandbox around every launched DCC, from `--sandbox`, else `DCC_SANDBOX`, else `auto`. */
  sandbox: DccSandboxMode;
  help: boolean;
  /** `--check`: print what would be served (no secrets) and exit, starting nothing. */
  check: boolean;
  /**
   * The approval rules `--ask` (else `DCC_MCP_ASK`) turns on, with `--ask-rule` custom rules and
   * the `--ask-timeout` bound (else `DCC_MCP_ASK_TIMEOUT`); undefined when no rule is on.
   */
  approval?: AdapterApprovalOptions;
}

const blenderWindows: readonly BlenderWindow[] = ["none", "xvfb", "display"];

/** Usage text for `--help`. */
export const usage: string = `Usage: dcc-mcp [options]

Serves DCCs over MCP: by default a simulated Maya scene (tools dcc_search and dcc_execute).

Options:
  --dcc <names>     DCCs to serve, comma-separated (env DCC_MCP_DCC; default maya; known:
                    ${Object.keys(knownAdapters).sort().join(", ")}); several get a <name>_search and <name>_execute pair each
  --port <n>        HTTP port (env DCC_MCP_PORT; default 8765; 0 picks a free one)
  --host <address>  HTTP address to bind (env DCC_MCP_HOST; default 127.0.0.1)
  --stdio           Serve MCP over stdin/stdout instead of HTTP
  --token <secret>  Require "Authorization: Bearer <secret>" over HTTP, 16+ characters
                    (env DCC_MCP_TOKEN; needed to bind a non-loopback address)
  --tokens-file <file>  Accept several tokens, one "label token" per line (# comments allowed);
                    the label names the client in the audit log (env DCC_MCP_TOKENS_FILE, or
                    DCC_MCP_TOKENS with label=token pairs); works with or without --token;
                    read again on SIGHUP, so a token is revoked by removing its line
  --data-dir <dir>  Folder for scene files (env DCC_MCP_DATA_DIR;
                    default ~/.dcc-reference-server/scenes)
  --scripts-dir <dir>  Folder for materialized scripts (env DCC_MCP_SCRIPTS_DIR;
                    default ~/.dcc-reference-server/scripts)
  --blender-window <none|xvfb|display>  How Blender runs (env DCC_BLENDER_WINDOW; default none:
                    headless; xvfb: its window manager under a virtual display; display: on $DISPLAY)
  --maya <simulated|mayapy|PATH>  Which Maya --dcc maya serves (env DCC_MAYA): mayapy (a real
                    headless Maya found from MAYAPY_BIN, MAYA_LOCATION, then PATH; the default
                    when MAYAPY_BIN is set, or when --dcc names maya and a Maya is found),
                    simulated (the default otherwise) or the path of a mayapy
  --maya-attach <file>  Drive the user's Maya running the dcc_maya_link plug-in, through the
                    connection.json it wrote (env DCC_MAYA_ATTACH)
  --blender-attach <file|auto>  Drive your own Blender running the DCC Link add-on: its
                    connection.json, or auto to find it (env DCC_BLENDER_ATTACH)
  --sandbox <auto|on|off>  The OS sandbox (Linux, bubblewrap) around every DCC the server
                    launches (env DCC_SANDBOX; default auto: sandboxed where bwrap works, else a
                    warning; on: refuse to start without it; off: never). An attached DCC is
                    never sandboxed: the user started it
  --farm <redis url>  Front a farm: scripts (with or without async) go to the BullMQ queue on
                    this Redis, where dcc-farm-worker processes run them; this server starts no
                    DCC and serves its catalog and tool texts only (env DCC_FARM_REDIS_URL; the
                    password only from DCC_FARM_REDIS_PASSWORD, never in the URL)
  --farm-prefix <prefix>  The farm's key prefix, as the workers' --prefix (env DCC_FARM_PREFIX;
                    default dcc)
  --audit-log <file>  Write one JSON line per tool call (env DCC_MCP_AUDIT_LOG): who, which
                    script and its sha256, job id, outcome, commands; rotated by size
  --audit-no-script  Leave the scripts' text out of the audit log, keeping their sha256
                    (env DCC_MCP_AUDIT_SCRIPT=0)
  --audit-max-bytes <n>  Rotate the audit log at this size (env DCC_MCP_AUDIT_MAX_BYTES;
                    default 104857600; the named file stays the live one; 0 never rotates)
  --audit-max-files <n>  Audit files kept, the current one included (env
                    DCC_MCP_AUDIT_MAX_FILES; default 10)
  --max-sessions <n>  Most HTTP sessions at once (env DCC_MCP_MAX_SESSIONS; default 64); when
                    full, the longest-idle one gives way to a new client
  --max-sessions-per-client <n>  Most sessions per labelled token, else per remote address
                    (env DCC_MCP_MAX_SESSIONS_PER_CLIENT; default half of --max-sessions; local
                    clients without a labelled token share loopback and have no share of their own)
  --session-idle <seconds>  Close a session idle this long (env DCC_MCP_SESSION_IDLE; default 300)
  --session-evict-idle <seconds>  How long a session must be idle to give way to a new one
                    when full (env DCC_MCP_SESSION_EVICT_IDLE; default 60)
  --ask <rules>     Ask a person before commands under these approval rules, comma-separated
                    (env DCC_MCP_ASK): delete, overwrite, open, render, or a custom rule. The
                    client is asked (elicitation); on no, no answer or a client that cannot ask,
                    the command fails with APPROVAL_DENIED. Async jobs need _meta.dcc.preapproved
  --ask-rule <name=cmd,...>  A custom approval rule over the named commands (repeatable);
                    turn it on with --ask
  --ask-timeout <seconds>  How long a question waits for its answer (env DCC_MCP_ASK_TIMEOUT;
                    default 120)
  --check           Check the command line and environment, print the server they would start
                    (as JSON, without secrets) and exit; nothing is started
  -h, --help        Show this help
`;

/** A bad command line; the CLI prints the message and the usage. */
export class CliUsageError extends Error {
  override readonly name: string = "CliUsageError";
}

/**
 * Reads the CLI flags, falling back to the environment (`DCC_MCP_DCC`, `DCC_MCP_PORT`,
 * `DCC_MCP_HOST`, `DCC_MCP_TOKEN`, `DCC_MCP_TOKENS_FILE`, `DCC_MCP_TOKENS`, `DCC_MCP_DATA_DIR`, `DCC_MCP_SCRIPTS_DIR`,
 * `DCC_BLENDER_WINDOW`, `DCC_BLENDER_ATTACH`, `DCC_SANDBOX`, `DCC_MAYA`, `DCC_MAYA_ATTACH`, `MAYAPY_BIN`,
 * `DCC_FARM_REDIS_URL`, `DCC_FARM_REDIS_PASSWORD`, `DCC_FARM_PREFIX`, `DCC_MCP_AUDIT_LOG`,
 * `DCC_MCP_AUDIT_SCRIPT`, `DCC_MCP_AUDIT_MAX_BYTES`, `DCC_MCP_AUDIT_MAX_FILES`, the session
 * bounds' `DCC_MCP_MAX_SESSIONS`, `DCC_MCP_MAX_SESSIONS_PER_CLIENT`, `DCC_MCP_SESSION_IDLE`,
 * `DCC_MCP_SESSION_EVICT_IDLE`) and then to the defaults.
 * @throws {CliUsageError} for unknown flags, a bad port, an unknown or repeated DCC name, a
 *   bad tokens file, a bad sandbox mode, a bad farm URL (one with a password among them), or bad
 *   audit or session settings.
 */
export function parseCliArguments(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
  cwd: string,
): CliConfig {
  let values: Record<string, string | boolean | string[] | undefined>;
  try {
    values = parseArgs({
      args: [...argv],
      options: {
        dcc: { type: "string" },
        port: { type: "string" },
        host: { type: "string" },
        stdio: { type: "boolean" },
        token: { type: "string" },
        "tokens-file": { type: "string" },
        farm: { type: "string" },
        "farm-prefix": { type: "string" },
        "audit-log": { type: "string" },
        "audit-no-script": { type: "boolean" },
        "audit-max-bytes": { type: "string" },
        "audit-max-files": { type: "string" },
        "data-dir": { type: "string" },
        "scripts-dir": { type: "string" },
        "blender-window": { type: "string" },
        maya: { type: "string" },
        "maya-attach": { type: "string" },
        "blender-attach": { type: "string" },
        "max-sessions": { type: "string" },
        "max-sessions-per-client": { type: "string" },
        "session-idle": { type: "string" },
        "session-evict-idle": { type: "string" },
        sandbox: { type: "string" },
        ask: { type: "string" },
        "ask-rule": { type: "string", multiple: true },
        "ask-timeout": { type: "string" },
        help: { type: "boolean", short: "h" },
        check: { type: "boolean" },
      },
      strict: true,
      allowPositionals: false,
    }).values;
  } catch (error) {
    throw new CliUsageError((error as Error).message);
  }
  const portText = (values["port"] as string | undefined) ?? env["DCC_MCP_PORT"] ?? "8765";
  const port = Number(portText);
  if (!/^\d+$/.test(portText) || port > 65535) {
    throw new CliUsageError(`Invalid port: ${portText} (expected 0-65535)`);
  }
  const dccText = (values["dcc"] as string | undefined) ?? env["DCC_MCP_DCC"];
  let dcc: string[] | undefined;
  if (dccText !== undefined) {
    try {
      dcc = checkDccNames(
        dccText
          .split(",")
          .map((name) => name.trim())
          .filter((name) => name !== ""),
      );
    } catch (error) {
      throw new CliUsageError((error as Error).message);
    }
  }
  // Not the working directory: clients such as Claude Desktop may start the server in "/".
  const dataDir =
    (values["data-dir"] as string | undefined) ??
    env["DCC_MCP_DATA_DIR"] ??
    join(homedir(), ".dcc-reference-server", "scenes");
  const scriptsDir =
    (values["scripts-dir"] as string | undefined) ??
    env["DCC_MCP_SCRIPTS_DIR"] ??
    join(homedir(), ".dcc-reference-server", "scripts");
  const windowText =
    (values["blender-window"] as string | undefined) ?? env["DCC_BLENDER_WINDOW"] ?? "none";
  if (!(blenderWindows as readonly string[]).includes(windowText)) {
    throw new CliUsageError(
      `Invalid Blender window: ${windowText} (expected ${blenderWindows.join(", ")})`,
    );
  }
  const maya = mayaChoice({
    maya: (values["maya"] as string | undefined) ?? env["DCC_MAYA"],
    attach: (values["maya-attach"] as string | undefined) ?? env["DCC_MAYA_ATTACH"],
    named: dcc?.includes("maya") === true,
    env,
    cwd,
  });
  const attachText = (values["blender-attach"] as string | undefined) ?? env["DCC_BLENDER_ATTACH"];
  if (attachText !== undefined && attachText.trim() === "") {
    throw new CliUsageError("--blender-attach needs a connection.json path, or auto");
  }
  const blenderAttach =
    attachText === undefined || attachText === "auto" ? attachText : resolve(cwd, attachText);
  if (blenderAttach !== undefined) {
    // Attaching is to Blender: it is served alone unless --dcc names it with others.
    if (dcc === undefined) dcc = ["blender"];
    else if (!dcc.includes("blender")) {
      throw new CliUsageError(
        `--blender-attach needs blender among the DCCs (--dcc ${dcc.join(",")})`,
      );
    }
  }
  let sandbox: DccSandboxMode;
  try {
    // @dcc/link's rule (the flag, else DCC_SANDBOX, else auto), checked before anything starts.
    sandbox = dccSandboxMode(values["sandbox"] as string | undefined, {
      env,
      optionName: "--sandbox",
    });
  } catch (error) {
    throw new CliUsageError((error as Error).message);
  }
  const tokens = labelledTokens(values["tokens-file"] as string | undefined, env, cwd);
  const tokensPath = (values["tokens-file"] as string | undefined) ?? env["DCC_MCP_TOKENS_FILE"];
  let farm: FarmRedisOptions | undefined;
  try {
    farm = farmRedisFromSettings(
      {
        url: values["farm"] as string | undefined,
        prefix: values["farm-prefix"] as string | undefined,
      },
      env,
    );
  } catch (error) {
    if (error instanceof FarmError) throw new CliUsageError(`--farm: ${error.message}`);
    throw error;
  }
  if (farm !== undefined && (blenderAttach !== undefined || maya.kind === "attach")) {
    throw new CliUsageError(
      "--farm runs scripts on the farm's workers; attaching drives a DCC of this machine: give one",
    );
  }
  let audit: ReferenceAuditOptions | undefined;
  try {
    audit = auditArguments(
      {
        auditLog: values["audit-log"] as string | undefined,
        noScript: values["audit-no-script"] as boolean | undefined,
        maxBytes: values["audit-max-bytes"] as string | undefined,
        maxFiles: values["audit-max-files"] as string | undefined,
      },
      env,
      cwd,
    );
  } catch (error) {
    if (error instanceof AuditArgumentError) throw new CliUsageError(error.message);
    throw error;
  }
  let sessions: SessionBounds;
  try {
    sessions = sessionArguments(
      {
        maxSessions: values["max-sessions"] as string | undefined,
        maxSessionsPerClient: values["max-sessions-per-client"] as string | undefined,
        sessionIdle: values["session-idle"] as string | undefined,
        sessionEvictIdle: values["session-evict-idle"] as string | undefined,
      },
      env,
    );
  } catch (error) {
    if (error instanceof SessionArgumentError) throw new CliUsageError(error.message);
    throw error;
  }
  const approval = approvalArguments(values, env, farm !== undefined);
  return {
    ...(approval === undefined ? {} : { approval }),
    ...(Object.keys(sessions).length === 0 ? {} : { sessions }),
    ...(tokens === undefined ? {} : { tokens }),
    ...(tokensPath === undefined ? {} : { tokensFile: resolve(cwd, tokensPath) }),
    ...(audit === undefined ? {} : { audit }),
    ...(farm === undefined ? {} : { farm }),
    transport: values["stdio"] === true ? "stdio" : "http",
    port,
    host: (values["host"] as string | undefined) ?? env["DCC_MCP_HOST"] ?? "127.0.0.1",
    token: (values["token"] as string | undefined) ?? env["DCC_MCP_TOKEN"],
    dcc,
    dataDir: resolve(cwd, dataDir),
    scriptsDir: resolve(cwd, scriptsDir),
    blenderWindow: windowText as BlenderWindow,
    maya,
    blenderAttach,
    sandbox,
    help: values["help"] === true,
    check: values["check"] === true,
  };
}

/** The approval settings of `--ask`, `--ask-rule` and `--ask-timeout` (or their variables). */
function approvalArguments(
  values: Record<string, string | boolean | string[] | undefined>,
  env: Readonly<Record<string, string | undefined>>,
  farm: boolean,
): AdapterApprovalOptions | undefined {
  let approval: AdapterApprovalOptions | undefined;
  try {
    approval = parseApprovalFlags({
      ask: values["ask"] as string | undefined,
      envAsk: env["DCC_MCP_ASK"],
      askRules: values["ask-rule"] as string[] | undefined,
    });
  } catch (error) {
    throw new CliUsageError((error as Error).message);
  }
  if (approval !== undefined && farm) {
    throw new CliUsageError(
      "--ask with --farm: scripts run on the farm's workers, where nobody can be asked; give --ask to dcc-farm-worker, and pre-approve rules per job (_meta.dcc.preapproved)",
    );
  }
  const timeoutText = (values["ask-timeout"] as string | undefined) ?? env["DCC_MCP_ASK_TIMEOUT"];
  if (timeoutText === undefined) return approval;
  const source = values["ask-timeout"] === undefined ? "DCC_MCP_ASK_TIMEOUT" : "--ask-timeout";
  const timeoutSecs = Number(timeoutText);
  if (!/^\d+(\.\d+)?$/.test(timeoutText.trim()) || timeoutSecs <= 0 || timeoutSecs > 86_400) {
    throw new CliUsageError(
      `${source} must be a number of seconds above 0 and at most 86400, not ${JSON.stringify(timeoutText)}`,
    );
  }
  if (approval === undefined) {
    throw new CliUsageError(`${source} bounds approval questions: turn a rule on with --ask`);
  }
  return { ...approval, timeoutSecs };
}

/** The labelled tokens of `--tokens-file`, else `DCC_MCP_TOKENS_FILE`, else `DCC_MCP_TOKENS`. */
function labelledTokens(
  file: string | undefined,
  env: Readonly<Record<string, string | undefined>>,
  cwd: string,
): LabelledToken[] | undefined {
  const path = file ?? env["DCC_MCP_TOKENS_FILE"];
  try {
    if (path !== undefined) {
      if (path.trim() === "") throw new TokensFileError("--tokens-file needs a file");
      return readTokensFile(resolve(cwd, path));
    }
    const variable = env["DCC_MCP_TOKENS"];
    return variable === undefined ? undefined : parseTokensVariable(variable);
  } catch (error) {
    if (error instanceof TokensFileError) throw new CliUsageError(error.message);
    throw error;
  }
}

function mayaChoice(options: {
  maya: string | undefined;
  attach: string | undefined;
  /** `--dcc` (or `DCC_MCP_DCC`) names maya, rather than the server serving it by default. */
  named: boolean;
  env: Readonly<Record<string, string | undefined>>;
  cwd: string;
}): MayaChoice {
  const { maya, attach, env, cwd } = options;
  if (attach !== undefined && attach !== "") {
    if (maya !== undefined && maya !== "") {
      throw new CliUsageError("--maya and --maya-attach name different Mayas: give one");
    }
    return { kind: "attach", connectionFile: resolve(cwd, attach) };
  }
  // A configured mayapy (MAYAPY_BIN) makes the real Maya the default; so does a Maya installed
  // (MAYA_LOCATION, or mayapy on PATH) when --dcc names maya. A server started with no --dcc
  // keeps the simulation, so the same command behaves alike on every machine.
  const wanted =
    maya ?? (env["MAYAPY_BIN"] || (options.named && mayaInstalled(env)) ? "mayapy" : "simulated");
  if (wanted === "simulated") return { kind: "simulated" };
  if (wanted === "mayapy") return { kind: "mayapy" };
  if (wanted === "")
    throw new CliUsageError("--maya needs simulated, mayapy or the path of a mayapy");
  return { kind: "mayapy", path: wanted.includes("/") ? resolve(cwd, wanted) : wanted };
}

function mayaInstalled(env: Readonly<Record<string, string | undefined>>): boolean {
  try {
    findMayapy({ env });
    return true;
  } catch (error) {
    if (error instanceof MayaNotFoundError) return false;
    throw error;
  }
}
