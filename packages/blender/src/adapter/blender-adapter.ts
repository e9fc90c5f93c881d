import { mkdir, mkdtemp, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { DccApiCatalog } from "@dcc/catalog";
import type {
  ApprovalRule,
  CommandDefinition,
  CommandError,
  CommandErrorOptions,
  DccAdapter,
} from "@dcc/executor";
import { type DccSandboxMode, sweepStaleFolders } from "@dcc/link";
import {
  createLinkedAdapter,
  keywordArgs,
  type LinkedCaller,
  type LinkedRecoveryCopy,
} from "@dcc/linked-adapter";
import { createBlenderCatalog } from "../blender-catalog.ts";
import type { BlenderCommandRecord } from "../blender-command-record.ts";
import { blenderDataCommands } from "../blender-data-command.ts";
import { type BlenderOperatorData, blenderOperatorData } from "../blender-operator-data.ts";
import { blenderCacheDir } from "../internal/blender-cache-dir.ts";
import {
  type BlenderVocabulary,
  exportersOf,
  vocabularyOf,
} from "../internal/blender-vocabulary.ts";
import { type DiscoveredOperators, discoverOperators } from "../internal/discover-operators.ts";
import { reviewedOperators } from "../internal/operator-policy.ts";
import { BlenderCommandError } from "./blender-command-error.ts";
import { type BlenderPolicy, type BlenderWindow, blenderLaunch } from "./blender-launch.ts";
import { blenderExecuteDescription, blenderInstructions } from "./blender-tool-texts.ts";
import { blenderApprovalRules } from "./internal/blender-approval-rules.ts";
import { captureImage } from "./internal/capture-command.ts";

/** Options for {@link createBlenderAdapter}. */
export interface BlenderAdapterOptions {
  /**
   * The data folder: .blend files, renders and exports are read and written only here (relative
   * paths start here). Created when missing. Required unless `attach` is given, where the
   * attached Blender's own data folder (set in its add-on) applies.
   */
  dataDir?: string | undefined;
  /**
   * Attach to an interactive Blender running the `dcc_blender_link` add-on instead of launching
   * one: `connectionFile` is the `connection.json` the add-on wrote. The adapter never ends that
   * Blender; the launch options do not apply.
   */
  attach?: { readonly connectionFile: string } | undefined;
  /** The Blender executable. Default: `BLENDER_BIN`, else `blender` on `PATH`. */
  blenderBin?: string | undefined;
  /** How Blender runs: `none` (default, `blender -b`), `xvfb` or `display` (see {@link BlenderWindow}). */
  window?: BlenderWindow | undefined;
  /** The host's policy; by default everything that runs code or reaches outside is refused. */
  policy?: BlenderPolicy | undefined;
  /** Bound on launch-to-ready. Default 120000 ms (a loaded machine starts Blender in seconds). */
  readyTimeoutMs?: number | undefined;
  /** Deadline of one command, unless the script's own timeout or cancel ends it first. Default 300000 ms. */
  callTimeoutMs?: number | undefined;
  /** How long a command may take to stop after a cancel or its deadline before Blender is ended. Default 2000 ms. */
  graceMs?: number | undefined;
  /**
   * Catalog for search. Default: {@link createBlenderCatalog} of the operators of the Blender
   * that serves the commands, read from it when it starts (before that, Blender 3.4.1's).
   */
  catalog?: DccApiCatalog | undefined;
  /**
   * Where the operators read from a Blender of an untested build are cached, one file per
   * version, build and operator list. Default `DCC_BLENDER_CACHE_DIR`, else
   * `$XDG_CACHE_HOME/dcc-mcp/blender`, else `~/.cache/dcc-mcp/blender`; `false` for no cache.
   */
  cacheDir?: string | false | undefined;
  /** Sees what Blender writes to stdout and stderr. */
  onOutput?: ((text: string, stream: "stdout" | "stderr") => void) | undefined;
  /**
   * The OS sandbox around a launched Blender (Linux, bubblewrap; every `window` mode): `auto`
   * where it works, else a one-time warning and none; `on` refuses to start without it; `off`
   * is the opt-out. Unset, the environment variable `DCC_SANDBOX` decides, else `auto`. Sandboxed, Blender sees the system, its install, this package's
   * Python and the data folder (writable), and nothing else of the host; no network. An
   * attached Blender (`attach`) is never sandboxed: its policy alone guards it.
   */
  sandbox?: DccSandboxMode | undefined;
  /**
   * A launched Blender's recovery copy: after each committed script that changed the scene, a
   * copy of the file is saved to a private folder (skipped when nothing changed, at most once per
   * `minIntervalMs`, default 10000), and a Blender restarted after a crash, a kill or a command
   * past its deadline opens it; the restart notice says what was restored and from when. `false`
   * keeps no copies (a restart then starts from the factory scene). An attached Blender is never
   * restarted by the adapter, so it keeps none.
   */
  recovery?: { readonly minIntervalMs?: number | undefined } | false | undefined;
}

/** The Blender adapter, with its process for tests and embedding. */
export interface BlenderAdapter extends DccAdapter {
  /** The data folder, absolute (resolved once `start` ran). */
  readonly dataDir: string;
  /** The running Blender's process id (`xvfb-run`'s under a virtual display). */
  readonly pid: number | undefined;
  /** How many times Blender was launched, restarts included. */
  readonly launches: number;
  /** The end of what Blender printed, for diagnosis. */
  readonly output: string;
  /** The running Blender's private session folder (its socket and `TMPDIR`). */
  readonly sessionDir: string | undefined;
  /** Whether the running Blender is in the OS sandbox (false when attached; undefined before `start`). */
  readonly sandboxed: boolean | undefined;
  /** The last recovery copy of a launched Blender's scene, if one was saved (see `recovery`). */
  readonly recoveryCopy: LinkedRecoveryCopy | undefined;
  /**
   * The operators of the Blender that serves the commands (after `start`), where they came
   * from (`tested`: a shipped catalog; `cache`; `generated`: read from that Blender now) and
   * the key of its build.
   */
  readonly operators:
    | (Pick<DiscoveredOperators, "source" | "key" | "cacheFile"> & {
        readonly blender: string;
        readonly count: number;
      })
    | undefined;
  /** Calls a link method of Blender's start-up script directly (`ping`, `blender.reset`, …). */
  call(method: string, params?: Readonly<Record<string, unknown>>): Promise<unknown>;
}

/**
 * An adapter whose host is a real Blender process: launched on `start` (headless by default), its
 * link served by the Python start-up script that ships in this package, restarted when it dies,
 * ended on `close`. Every `bpy.ops` operator of the catalog is a command (dispatched by its id
 * with keyword arguments, under a 3D-view override when it needs one), as are the data commands
 * (`data.get`, `data.set`, `data.list`, `data.call`, `data.describe`). Blender enforces the
 * policy: commands that run code or reach outside are refused (`POLICY`), file paths must lie in
 * the data folder, and a .blend file's scripts never run.
 */
export function createBlenderAdapter(options: BlenderAdapterOptions): BlenderAdapter {
  if (options.dataDir === undefined && options.attach === undefined) {
    throw new TypeError("createBlenderAdapter needs a dataDir (or attach, for a running Blender)");
  }
  let dataDir = options.dataDir === undefined ? "" : resolve(options.dataDir);
  let catalog = options.catalog;
  // The serving Blender's operators, once read from it; the 3.4.1 catalog's until then.
  let discovered: DiscoveredOperators | undefined;
  const operatorData = (): BlenderOperatorData => discovered?.data ?? blenderOperatorData();
  let vocabulary: BlenderVocabulary | undefined;
  const getCatalog = (): DccApiCatalog => {
    catalog ??= createBlenderCatalog({
      policy: options.policy,
      operators: operatorData(),
      eeveeEngine: vocabulary?.eevee,
    });
    return catalog;
  };
  const cacheDir =
    options.cacheDir === false ? undefined : (options.cacheDir ?? blenderCacheDir(process.env));
  const createError = (init: CommandErrorOptions): CommandError => new BlenderCommandError(init);

  const operatorCommand = (caller: LinkedCaller, name: string): CommandDefinition => ({
    name,
    ...recordText(getCatalog(), name),
    handler: async (args, context) => {
      try {
        return await caller.call(
          name,
          "blender.op",
          { operator: name, args: keywordArgs(name, args, createError) },
          context.signal,
        );
      } catch (error) {
        throw withContextHint(getCatalog(), error);
      }
    },
  });

  // A capture is written by Blender into a file the host creates in a private folder: the
  // launched Blender's session folder (which its sandbox shows it), else the temporary folder.
  const captureCommand = (caller: LinkedCaller, name: string): CommandDefinition => ({
    name,
    ...recordText(getCatalog(), name),
    handler: async (args, context) =>
      captureImage({
        command: name,
        args: keywordArgs(name, args, createError),
        parent: linked.sessionDir ?? tmpdir(),
        call: (params) => caller.call(name, name, params, context.signal),
        signal: context.signal,
      }),
  });

  const attach = options.attach;
  // The recovery copy's private folder: made at the first launch, removed on close.
  let recoveryDir: string | undefined;
  const keepsCopies = attach === undefined && options.recovery !== false;
  const linked = createLinkedAdapter({
    dccName: "blender",
    displayName: "Blender",
    launch: async () => {
      await mkdir(dataDir, { recursive: true });
      dataDir = await realpath(dataDir);
      if (keepsCopies && recoveryDir === undefined) {
        // A server killed before its close could remove its folder left it: any launch sweeps
        // the folders whose owner (the pid in the name) is gone, as the link does its own.
        await sweepStaleFolders({
          parent: tmpdir(),
          prefix: recoveryPrefix,
          owners: recoveryOwner,
        });
        recoveryDir = await mkdtemp(join(tmpdir(), `${recoveryPrefix}${process.pid}-`));
      }
      return blenderLaunch({
        recoveryDir,
        blenderBin: options.blenderBin,
        dataDir,
        window: options.window ?? "none",
        policy: options.policy,
        sandbox: options.sandbox,
      });
    },
    attach:
      attach === undefined
        ? undefined
        : {
            connectionFile: resolve(attach.connectionFile),
            reattachHint:
              "Start Blender again with the DCC Link add-on enabled (and the same DCC_BLENDER_LINK_DIR); the adapter reattaches.",
          },
    // The data commands (the reads marked `lane` also run on a script's sandbox thread).
    specs: blenderDataCommands().filter((spec) => spec.name !== captureName),
    commands: (caller) => [
      ...operatorData().operators.map((operator) => operatorCommand(caller, operator.name)),
      captureCommand(caller, captureName),
    ],
    catalog: getCatalog,
    // Each script is one step of Blender's undo stack, rolled back when it fails.
    transaction: { begin: "blender.txn.begin", end: "blender.txn.end" },
    readyTimeoutMs: options.readyTimeoutMs ?? 120_000,
    callTimeoutMs: options.callTimeoutMs ?? 300_000,
    graceMs: options.graceMs ?? 2000,
    restartNote: "with its factory start-up scene (unsaved changes are lost)",
    recovery: keepsCopies
      ? {
          save: "blender.recovery.save",
          open: "blender.recovery.open",
          minIntervalMs: options.recovery === false ? undefined : options.recovery?.minIntervalMs,
        }
      : undefined,
    async afterStart(caller, signal) {
      // The commands and the catalog are this Blender's own (read once: a restart runs the
      // same Blender).
      if (discovered === undefined) {
        discovered = await discoverOperators({
          call: (method) => caller.call(method, method, {}, signal),
          cacheDir,
        });
        if (options.catalog === undefined) catalog = undefined;
        // A tested build's names are known; an untested one is asked (which adds and removes a
        // node group in its file, so a tested Blender is not).
        if (discovered.source === "tested") {
          vocabulary = vocabularyOf(discovered.data);
        } else {
          const words = (await caller.call(
            "blender.vocabulary",
            "blender.vocabulary",
            {},
            signal,
          )) as { blender: string; eevee: string; principledInputs: string[] };
          vocabulary = {
            blender: words.blender,
            eevee: words.eevee,
            principledInputs: words.principledInputs,
            exporters: exportersOf(discovered.data),
          };
        }
      }
      if (attach === undefined) return;
      // The attached Blender's own data folder (set in its add-on) applies.
      const ping = (await caller.call("ping", "ping", {}, signal)) as { dataDir?: unknown };
      if (typeof ping.dataDir === "string") dataDir = ping.dataDir;
    },
    onOutput: options.onOutput,
    createError,
  });

  return {
    dccName: linked.dccName,
    get dataDir() {
      return dataDir;
    },
    get pid() {
      return linked.pid;
    },
    get launches() {
      return linked.launches;
    },
    get output() {
      return linked.output;
    },
    get sessionDir() {
      return linked.sessionDir;
    },
    get sandboxed() {
      return linked.sandboxed;
    },
    get recoveryCopy() {
      return linked.recoveryCopy;
    },
    get operators() {
      if (discovered === undefined) return undefined;
      return {
        blender: discovered.data.blender,
        count: discovered.data.operators.length,
        source: discovered.source,
        key: discovered.key,
        cacheFile: discovered.cacheFile,
      };
    },
    start: (context) => linked.start(context),
    dispatchLane: () => linked.dispatchLane?.(),
    beginTransaction: (transaction) =>
      (linked.beginTransaction as NonNullable<typeof linked.beginTransaction>)(transaction),
    commands: () => linked.commands(),
    catalog: getCatalog,
    // Before start (and on a catalog-only front end) the names come from the catalog's version.
    instructions: (tools) =>
      blenderInstructions(tools, dataDir, vocabulary ?? vocabularyOf(operatorData())),
    executeDescription: (tools) => blenderExecuteDescription(tools),
    approvalRules: (): readonly ApprovalRule[] =>
      blenderApprovalRules({
        dataDir: () => dataDir,
        // Every tested Blender's operators and the running one's: a rule may name operators
        // this Blender lacks (never called), and covers an add-on's exporter once started.
        operatorNames: () => [
          ...reviewedOperators(),
          ...operatorData().operators.map((operator) => operator.name),
        ],
        call: (method, params, signal) => {
          const connection = linked.connection;
          // A restart not yet reported belongs to the script's next command, which a read here
          // would take: the question is then asked with a plain summary instead.
          if (connection === undefined || connection.laneAccess() === undefined) {
            return Promise.reject(new Error("Blender is not ready to be asked"));
          }
          // Behind another script's command the read waits its turn in the link's queue, from
          // which a stop or the bound drops it before it reaches Blender.
          return connection.call(
            method,
            method,
            params,
            AbortSignal.any([signal, AbortSignal.timeout(approvalReadMs)]),
          );
        },
      }),
    call: (method, params) => linked.call(method, params),
    async close() {
      await linked.close();
      if (recoveryDir !== undefined) await rm(recoveryDir, { recursive: true, force: true });
    },
  };
}

const captureName = "viewport.screenshot";

// Bound on one read an approval rule makes (the selection, the open file): a Blender busy past
// it gets the question with a plain summary.
const approvalReadMs = 10_000;

const recoveryPrefix = "dcc-blender-recovery-";

/** The process that owns a recovery folder, from its name (`dcc-blender-recovery-<pid>-…`). */
function recoveryOwner(_path: string, name: string): number[] | undefined {
  const pid = Number(name.slice(recoveryPrefix.length).split("-")[0]);
  return Number.isInteger(pid) && pid > 0 ? [pid] : undefined;
}

function recordText(
  catalog: DccApiCatalog,
  name: string,
): { signature?: string; description?: string } {
  const record = catalog.get(name) as BlenderCommandRecord | undefined;
  if (record === undefined) return {};
  return { signature: record.signature, description: record.description };
}

/** A `POLL_FAILED` error also says where the catalog found the operator's poll() passes. */
function withContextHint(catalog: DccApiCatalog, error: unknown): unknown {
  if (!(error instanceof BlenderCommandError) || error.code !== "POLL_FAILED") return error;
  const hint = (catalog.get(error.command) as BlenderCommandRecord | undefined)?.context;
  if (hint === undefined) return error;
  return new BlenderCommandError({
    command: error.command,
    code: error.code,
    message: `${error.message.replace(/\.$/, "")}; the catalog says: ${hint}.`,
    data: error.data,
    completion: error.completion,
    cause: error.cause,
  });
}
