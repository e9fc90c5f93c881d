import { mkdir, realpath } from "node:fs/promises";
import { resolve } from "node:path";
import type { DccApiCatalog } from "@dcc/catalog";
import type {
  CommandDefinition,
  CommandError,
  CommandErrorOptions,
  DccAdapter,
} from "@dcc/executor";
import type { DccSandboxMode } from "@dcc/link";
import { createLinkedAdapter, keywordArgs, type LinkedCaller } from "@dcc/linked-adapter";
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
import { BlenderCommandError } from "./blender-command-error.ts";
import { type BlenderPolicy, type BlenderWindow, blenderLaunch } from "./blender-launch.ts";
import { blenderExecuteDescription, blenderInstructions } from "./blender-tool-texts.ts";
import { capturedImage } from "./internal/capture-command.ts";

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
   * (default) where it works, else a one-time warning and none; `on` refuses to start without
   * it; `off` is the opt-out. Sandboxed, Blender sees the system, its install, this package's
   * Python and the data folder (writable), and nothing else of the host; no network. An
   * attached Blender (`attach`) is never sandboxed: its policy alone guards it.
   */
  sandbox?: DccSandboxMode | undefined;
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

  // The capture's answer is a file Blender wrote: its own handler reads it into an image.
  const captureCommand = (caller: LinkedCaller, name: string): CommandDefinition => ({
    name,
    ...recordText(getCatalog(), name),
    handler: async (args, context) =>
      capturedImage(
        name,
        await caller.call(name, name, keywordArgs(name, args, createError), context.signal),
      ),
  });

  const attach = options.attach;
  const linked = createLinkedAdapter({
    dccName: "blender",
    displayName: "Blender",
    launch: async () => {
      await mkdir(dataDir, { recursive: true });
      dataDir = await realpath(dataDir);
      return blenderLaunch({
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
    // One scene, one selection and one active object for every script: a second script waits
    // for the first rather than taking turns with it call by call.
    scriptsAtOnce: 1,
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
    scriptsAtOnce: 1,
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
    call: (method, params) => linked.call(method, params),
    close: () => linked.close(),
  };
}

const captureName = "viewport.screenshot";

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
