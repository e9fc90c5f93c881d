import type { Readable, Writable } from "node:stream";
import { type BlenderWindow, findBlenderConnection } from "@dcc/blender";
import type { AdapterApprovalOptions, DccAdapter, ExecutorLimits } from "@dcc/executor";
import type { FarmJobQueue, FarmRedisOptions } from "@dcc/farm";
import type { DccSandboxMode } from "@dcc/link";
import {
  type CreateDccServerOptions,
  createDccServer,
  type DccAdapterRegistration,
  type DccServer,
  type DccToolCallObserver,
  type LabelledToken,
  McpBridgeError,
} from "@dcc/mcp-bridge";
import type { MayaChoice } from "../adapters/known-adapters.ts";
import { selectAdapters } from "../adapters/select-adapters.ts";
import { farmCatalogOnlyReason, serveFarm } from "./farm-front-end.ts";
import { type ReferenceAuditOptions, withAuditLog } from "./reference-audit.ts";

/** The HTTP endpoint's session and body bounds, passed on to `createDccServer`. */
type HttpBounds = Pick<
  CreateDccServerOptions,
  "maxBodyBytes" | "sessionIdleMs" | "sessionEvictIdleMs" | "maxSessions" | "maxSessionsPerClient"
>;

/**
 * Options for {@link createReferenceServer}; also the HTTP endpoint's bounds (`maxSessions`,
 * `sessionEvictIdleMs`, …, see `@dcc/mcp-bridge`).
 */
export interface ReferenceServerOptions extends HttpBounds {
  /** `"http"` (Streamable HTTP, the default) or `"stdio"`. */
  transport?: "http" | "stdio";
  /** HTTP port; 0 picks a free one. Default 8765. */
  port?: number;
  /** HTTP address to bind. Default `127.0.0.1`. */
  host?: string;
  /** Require `Authorization: Bearer <token>` over HTTP (at least 16 characters). */
  token?: string;
  /** Labelled bearer tokens accepted besides (or instead of) `token`; see `createDccServer`. */
  tokens?: ReadonlyArray<LabelledToken>;
  /**
   * Names of the DCCs to serve, from the app's registry (`maya`). Default `["maya"]`, the
   * simulated Maya scene. With several, each gets its own `<name>_search` and `<name>_execute`.
   */
  dcc?: readonly string[];
  /** Adapters to serve instead of `dcc`, e.g. one with extra commands. */
  adapters?: ReadonlyArray<DccAdapter | DccAdapterRegistration>;
  /** Folder for scene files (`file` rename/save/open; .blend files and renders). Maya's scene
   * files are disabled without it; Blender needs it. */
  dataDir?: string;
  /** How Blender runs when `dcc` names it: `none` (headless, default), `xvfb` or `display`. */
  blenderWindow?: BlenderWindow;
  /**
   * Which Maya `maya` serves: `{ kind: "simulated" }` (default), `{ kind: "mayapy", path? }` (a
   * real headless Maya; it needs `dataDir`) or `{ kind: "attach", connectionFile }`.
   */
  maya?: MayaChoice;
  /**
   * Attach to a running Blender with the DCC Link add-on instead of launching one: its
   * `connection.json`, or `"auto"` to find it where the add-on writes it by default.
   */
  blenderAttach?: string;
  /**
   * The OS sandbox (`@dcc/link`, bubblewrap on Linux) around every DCC the server launches:
   * `auto`, `on` or `off`. Default: `DCC_SANDBOX`, else `auto`. Attached DCCs are never sandboxed.
   */
  sandbox?: DccSandboxMode;
  /** How long an adapter may take to start (Blender launches a process). Default 180 000 ms. */
  startTimeoutMs?: number;
  /**
   * Folder for materialized scripts: a `dcc_execute` script that only defines a typed `main` is
   * stored there and can be called again with `file_path` + `params`. Disabled without it.
   */
  scriptsDir?: string;
  /** Overrides of the executor's sandbox limits. */
  limits?: Partial<ExecutorLimits>;
  /**
   * Approval rules to turn on (`--ask`): a script's command under one waits for a person's
   * answer through the client (see `createDccServer`'s `approval`). Not with `farm`: its workers
   * take their own `--ask`.
   */
  approval?: AdapterApprovalOptions;
  /**
   * Front a farm: every script (async or not) is a job on the farm's BullMQ queue in this Redis,
   * run by `dcc-farm-worker` processes; the DCCs named by `dcc` are served catalog-only, so no
   * host starts here. `adapters`, when given, are served as they are.
   */
  farm?: FarmRedisOptions;
  /**
   * Write an audit log: one JSON line per tool call (`@dcc/mcp-bridge/audit`), its drops counted
   * on `/metrics`. A file that cannot be written only warns: calls go on.
   */
  audit?: ReferenceAuditOptions;
  /** stdio only: where requests come from. Default `process.stdin`. */
  stdin?: Readable;
  /** stdio only: where responses go. Default `process.stdout`. */
  stdout?: Writable;
}

/** A running reference server; with `farm`, also its queue (closed with the server). */
export type ReferenceServer = DccServer & { readonly jobQueue?: FarmJobQueue };

const serverInfo = { name: "dcc-reference-server", version: "0.1.0" };

/**
 * Starts the reference MCP server: the named DCCs of the app's registry (the simulated Maya scene
 * by default), or the given adapters, served by `createDccServer` from `@dcc/mcp-bridge` over
 * Streamable HTTP or stdio. The CLI and the tests share it.
 * @throws `UnknownDccError` for an unknown or repeated DCC name; whatever `createDccServer` throws.
 */
export async function createReferenceServer(
  options: ReferenceServerOptions = {},
): Promise<ReferenceServer> {
  const { audit, ...others } = options;
  return withAuditLog(audit, (onToolCall) =>
    startServer({ ...others, ...(onToolCall === undefined ? {} : { onToolCall }) }),
  );
}

async function startServer(
  options: Omit<ReferenceServerOptions, "audit"> & { onToolCall?: DccToolCallObserver },
): Promise<ReferenceServer> {
  const { dcc, adapters, dataDir, blenderWindow, maya, blenderAttach, sandbox, farm, ...rest } =
    options;
  const settings = {
    ...(sandbox === undefined ? {} : { sandbox }),
    ...(dataDir === undefined ? {} : { dataDir }),
    ...(blenderWindow === undefined ? {} : { blenderWindow }),
    ...(maya === undefined ? {} : { maya }),
    // "auto": the add-on's file where it writes it by default, found once, now.
    ...(blenderAttach === undefined
      ? {}
      : {
          blenderAttach: blenderAttach === "auto" ? await findBlenderConnection() : blenderAttach,
        }),
  };
  if (farm !== undefined) {
    if (rest.approval !== undefined) {
      throw new McpBridgeError({
        code: "INVALID_CONFIG",
        message:
          "approval with farm: scripts run on the farm's workers, where nobody can be asked; turn rules on in the workers (--ask) and pre-approve them per job",
      });
    }
    const served =
      adapters ?? selectAdapters(dcc, { ...settings, catalogOnly: farmCatalogOnlyReason });
    return serveFarm({ redis: farm, adapters: served, scriptsDir: rest.scriptsDir }, (jobQueue) =>
      createDccServer({
        ...serverInfo,
        startTimeoutMs: 180_000,
        ...rest,
        adapters: served,
        jobQueue,
        syncCallsOnQueue: true,
      }),
    );
  }
  return createDccServer({
    ...serverInfo,
    startTimeoutMs: 180_000,
    ...rest,
    adapters: adapters ?? selectAdapters(dcc, settings),
  });
}
