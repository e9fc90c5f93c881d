// dcc-farm-worker's command line: the DCC, the pool, Redis from flags or the environment.
import { parseArgs } from "node:util";
import { type AdapterApprovalOptions, parseApprovalFlags, sharedRuleNames } from "@dcc/executor";
import { FarmError } from "../farm-error.ts";
import { farmRedisFromSettings } from "../farm-redis-from-settings.ts";
import type { FarmRedisOptions } from "../farm-redis-options.ts";

/** What the command line asks for. */
export interface WorkerArguments {
  dcc: string;
  pool: string;
  /** The DCC's data folder (.blend files and renders for Blender). */
  dataDir?: string;
  /**
   * For `--dcc maya`: `simulated` (the default, unless `MAYAPY_BIN` is set), `mayapy` (found from
   * `MAYAPY_BIN`, `$MAYA_LOCATION/bin/mayapy`, `PATH`) or the path of a `mayapy`.
   */
  maya?: string;
  redis: FarmRedisOptions;
  lockDurationMs?: number;
  stalledIntervalMs?: number;
  maxStalledCount?: number;
  /** The OS sandbox around the DCC: `auto` (default), `on` or `off` (see `@dcc/link`). */
  sandbox?: "auto" | "on" | "off";
  /** `--audit-log`: the audit log file, one line per job this worker runs. */
  auditLog?: string;
  /** `--audit-no-script`: leave the script's text out of the audit log (its hash stays). */
  auditScript?: boolean;
  /**
   * `--ask` (or `DCC_MCP_ASK`) and `--ask-rule`: the approval rules that are on, and the custom
   * rules defined. Absent when no rule is on.
   */
  approval?: AdapterApprovalOptions;
}

/** The usage text. */
export const workerUsage: string = `Usage: dcc-farm-worker --dcc maya|blender [--pool <dcc>] [--data-dir <folder>]
  [--maya simulated|mayapy|<path to mayapy>]
  [--redis redis://127.0.0.1:6379] [--redis-tls] [--prefix dcc] [--lock-duration-ms 30000]
  [--stalled-interval-ms 30000] [--max-stalled-count 0] [--sandbox auto|on|off]
  [--audit-log <file>] [--audit-no-script] [--ask <rule,...>] [--ask-rule <name>=<command,...>]
--dcc blender runs a headless Blender (blender on PATH or BLENDER_BIN) whose files stay inside
--data-dir, which it needs. --dcc maya runs the simulated scene, or with --maya mayapy (or
MAYAPY_BIN set, or --maya <path>) a real headless Maya whose files stay inside --data-dir.
On Linux a launched Blender or Maya runs in an OS sandbox (bubblewrap) where that works
(--sandbox auto, the default); --sandbox on refuses to start without it, off opts out.
The Redis URL may also come from DCC_FARM_REDIS_URL, and the password only from
DCC_FARM_REDIS_PASSWORD (a URL holding one is refused: command lines are visible to all users). --audit-log writes one JSON line per job
(the same job id as the server's submission line; rotated at 100 MiB, 10 files kept);
--audit-no-script leaves the scripts' text out.
--ask delete,overwrite (or DCC_MCP_ASK; the flag wins) turns approval rules on: nobody can be asked
on a farm, so their commands run only in jobs whose submission pre-approved the rule, and fail
with APPROVAL_DENIED otherwise. Shared rules: ${sharedRuleNames.join(", ")}. --ask-rule
publish=exportAll,file (repeatable) defines a custom rule over those commands; --ask turns it on.`;

/** Whether `argv` asks for the usage (`--help` or `-h`), whatever else it holds. */
export function wantsUsage(argv: readonly string[]): boolean {
  const end = argv.indexOf("--");
  return (end === -1 ? argv : argv.slice(0, end)).some((arg) => arg === "--help" || arg === "-h");
}

/**
 * Parses `argv` (without node and the script) and `env`.
 * @throws {@link FarmError} `INVALID_CONFIG` with the problem.
 */
export function parseWorkerArguments(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
): WorkerArguments {
  let values: Record<string, string | boolean | string[] | undefined>;
  try {
    values = parseArgs({
      args: [...argv],
      options: {
        dcc: { type: "string" },
        pool: { type: "string" },
        "data-dir": { type: "string" },
        maya: { type: "string" },
        redis: { type: "string" },
        "redis-tls": { type: "boolean" },
        prefix: { type: "string" },
        "lock-duration-ms": { type: "string" },
        "stalled-interval-ms": { type: "string" },
        "max-stalled-count": { type: "string" },
        sandbox: { type: "string" },
        "audit-log": { type: "string" },
        "audit-no-script": { type: "boolean" },
        ask: { type: "string" },
        "ask-rule": { type: "string", multiple: true },
      },
      strict: true,
    }).values;
  } catch (error) {
    throw new FarmError({ code: "INVALID_CONFIG", message: (error as Error).message });
  }
  const dcc = values["dcc"];
  if (typeof dcc !== "string" || dcc === "") {
    throw new FarmError({ code: "INVALID_CONFIG", message: "--dcc is required" });
  }
  const prefix = values["prefix"];
  // The one rule of every entry point: the password only from DCC_FARM_REDIS_PASSWORD.
  const redis = farmRedisFromSettings(
    {
      url: values["redis"] as string | undefined,
      prefix: typeof prefix === "string" ? prefix : undefined,
      tls: values["redis-tls"] === true,
    },
    env,
  );
  const number = (flag: string): number | undefined => {
    const text = values[flag];
    if (typeof text !== "string") return undefined;
    const parsed = Number(text);
    if (!Number.isInteger(parsed) || parsed < 0) {
      throw new FarmError({ code: "INVALID_CONFIG", message: `--${flag} must be a whole number` });
    }
    return parsed;
  };
  const lockDurationMs = number("lock-duration-ms");
  const stalledIntervalMs = number("stalled-interval-ms");
  const maxStalledCount = number("max-stalled-count");
  const dataDir = values["data-dir"];
  if (dataDir === "") {
    throw new FarmError({ code: "INVALID_CONFIG", message: "--data-dir must name a folder" });
  }
  const maya = (values["maya"] as string | undefined) ?? (env["MAYAPY_BIN"] ? "mayapy" : undefined);
  if (maya === "") {
    throw new FarmError({
      code: "INVALID_CONFIG",
      message: "--maya needs simulated, mayapy or the path of a mayapy",
    });
  }
  const sandbox = values["sandbox"];
  if (sandbox !== undefined && sandbox !== "auto" && sandbox !== "on" && sandbox !== "off") {
    throw new FarmError({
      code: "INVALID_CONFIG",
      message: `--sandbox must be auto, on or off, not ${JSON.stringify(sandbox)}`,
    });
  }
  const auditLog = values["audit-log"];
  if (auditLog === "") {
    throw new FarmError({ code: "INVALID_CONFIG", message: "--audit-log must name a file" });
  }
  let approval: WorkerArguments["approval"];
  try {
    approval = parseApprovalFlags({
      ask: values["ask"] as string | undefined,
      envAsk: env["DCC_MCP_ASK"],
      askRules: (values["ask-rule"] as string[] | undefined) ?? [],
    });
  } catch (error) {
    throw invalid(error instanceof Error ? error.message : String(error));
  }
  return {
    dcc,
    ...(approval === undefined ? {} : { approval }),
    ...(typeof auditLog === "string" ? { auditLog } : {}),
    ...(values["audit-no-script"] === true ? { auditScript: false } : {}),
    ...(maya === undefined ? {} : { maya }),
    pool: (values["pool"] as string | undefined) ?? dcc,
    ...(typeof dataDir === "string" ? { dataDir } : {}),
    redis: redis ?? {
      ...(values["redis-tls"] === true ? { tls: true } : {}),
      ...(typeof prefix === "string" ? { prefix } : {}),
    },
    ...(lockDurationMs === undefined ? {} : { lockDurationMs }),
    ...(stalledIntervalMs === undefined ? {} : { stalledIntervalMs }),
    ...(maxStalledCount === undefined ? {} : { maxStalledCount }),
    ...(sandbox === undefined ? {} : { sandbox }),
  };
}

function invalid(message: string): FarmError {
  return new FarmError({ code: "INVALID_CONFIG", message });
}
