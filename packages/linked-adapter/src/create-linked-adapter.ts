import { type CommandRecord, DccApiCatalog } from "@dcc/catalog";
import type {
  CommandDefinition,
  DccAdapter,
  DccAdapterContext,
  DccToolNames,
  DccTransactionReport,
  DispatchLane,
} from "@dcc/executor";
import { CommandError } from "@dcc/executor";
import type { LinkHeartbeatOptions } from "@dcc/link";
import { CommandSpecError } from "./command-spec-error.ts";
import { imageAnswer } from "./internal/image-answer.ts";
import type { LinkedLaneData } from "./internal/linked-dispatch-lane.ts";
import { keywordArgs } from "./keyword-args.ts";
import type { CreateCommandError } from "./link-command-error.ts";
import { LinkedAttachment } from "./linked-attachment.ts";
import type { LinkedCaller } from "./linked-caller.ts";
import { commandSpecRecord, type LinkedCommandSpec } from "./linked-command-spec.ts";
import type { LinkedConnection, LinkedHostEvent } from "./linked-connection.ts";
import { LinkedHost, type LinkedHostOptions, type LinkedLaunch } from "./linked-host.ts";
import type { LinkedRecoveryCopy } from "./linked-recovery.ts";
import { beginLinkedTransaction, type LinkedTransactionMethods } from "./linked-transaction.ts";

/** How a linked adapter reaches a DCC the user runs (see {@link LinkedAttachment}). */
export interface LinkedAttachOptions {
  /** The connection file the DCC's plug-in wrote. */
  readonly connectionFile: string;
  /** How often to look for the DCC again once it has gone. Default 2000 ms. */
  readonly retryMs?: number | undefined;
  /** The link's heartbeat; an interactive default (see {@link LinkedAttachmentOptions}). */
  readonly heartbeat?: LinkHeartbeatOptions | undefined;
  /** What the user does to reattach, said when the DCC has gone. */
  readonly reattachHint?: string | undefined;
}

/**
 * Options for {@link createLinkedAdapter}. The bounds, heartbeat, restart note, crash-loop
 * back-off, output and error fields are {@link LinkedHostOptions}' own, for a launched DCC; an
 * attached one takes only `callTimeoutMs` and `createError` (the rest are in `attach`).
 */
export interface LinkedAdapterOptions
  extends Pick<
    LinkedHostOptions,
    | "readyTimeoutMs"
    | "callTimeoutMs"
    | "graceMs"
    | "terminateGraceMs"
    | "heartbeat"
    | "restartNote"
    | "crashLoop"
    | "recovery"
    | "onOutput"
    | "createError"
  > {
  /** DCC identifier: the tool prefix when a server hosts several adapters, e.g. `"freecad"`. */
  dccName: string;
  /** The DCC's name in messages. Default: `dccName`. */
  displayName?: string | undefined;
  /**
   * Builds the launch on `start` (so a missing executable fails `start` with its own error): the
   * command, arguments and environment of a process that serves `@dcc/link` (its Python side
   * calls `serve_blocking` or pumps a `PumpServer`). Required unless `attach` is given.
   */
  launch?: (() => LinkedLaunch | Promise<LinkedLaunch>) | undefined;
  /** Attach to a DCC the user runs instead of launching one; `launch` is then not used. */
  attach?: LinkedAttachOptions | undefined;
  /**
   * Commands served as their spec says: `method` (default the name) called with the keyword
   * arguments (`{}` when none); a spec marked `image` answers a `HostImage`. Their records make
   * the default catalog.
   */
  specs?: readonly LinkedCommandSpec[] | undefined;
  /**
   * Further commands with handlers of their own, e.g. one per catalog entry of a big API. Called
   * by `createLinkedAdapter`, so that a name a spec also has is refused at once
   * ({@link CommandSpecError}: a command is a spec or one of these, never both), and again each
   * time the adapter's commands or default catalog are read (after `start`, so they may be the
   * running DCC's own; the caller reaches the DCC once `start` ran). Each is in the default
   * catalog under its own `signature` and `description`.
   */
  commands?: ((caller: LinkedCaller) => readonly CommandDefinition[]) | undefined;
  /**
   * What search looks in. Default: a catalog of the specs' records ({@link commandSpecRecord})
   * and of `commands`' (name, signature, description and `argsSchema` as `args`).
   */
  catalog?: (() => DccApiCatalog) | undefined;
  /**
   * Further read-only commands the dispatch lane may run, besides specs marked `lane`; their
   * definitions count as `readOnly` unless they say otherwise.
   */
  laneCommands?: readonly string[] | undefined;
  /**
   * The DCC-side methods of a script's transaction: with them the adapter has
   * `beginTransaction` (an undo chunk per script, rolled back when the script fails), else none.
   * `true` uses {@link linkedTransactionMethods}, the methods `serve(transaction=...)` of
   * `dcc_link` registers (in no spec file, so scripts never see them).
   */
  transaction?: LinkedTransactionMethods | true | undefined;
  /**
   * See {@link DccAdapter.scriptsAtOnce}. Default: no limit beyond the sandbox pool's size.
   * Scripts' changes never interleave whatever this is (a script holds the DCC from its first
   * change to its end), and a script that does not call the DCC never waits for another.
   */
  scriptsAtOnce?: number | undefined;
  /** See {@link DccAdapter.instructions}. */
  instructions?: ((tools: DccToolNames) => string) | undefined;
  /** See {@link DccAdapter.executeDescription}. */
  executeDescription?: ((tools: DccToolNames) => string) | undefined;
  /** Runs once the DCC is up, before `start` resolves (e.g. to ask it for its data folder). */
  afterStart?: ((caller: LinkedCaller, signal: AbortSignal) => Promise<void>) | undefined;
}

/** A linked adapter, with its connection for tests and embedding. */
export interface LinkedAdapter extends DccAdapter {
  /**
   * The id of the process the adapter launched and ends: the DCC's own, or bubblewrap's when
   * `sandboxed` (the DCC runs as its child in a PID namespace of its own, where its
   * `os.getpid()` is another number; signal this one, and the sandbox ends the DCC with it).
   * From the connection file when attached. Undefined before `start`.
   */
  readonly pid: number | undefined;
  /** How many times the DCC was launched or attached, restarts included. */
  readonly launches: number;
  /** The end of what a launched DCC printed, for diagnosis. */
  readonly output: string;
  /** A launched DCC's private session folder (its socket and `TMPDIR`). */
  readonly sessionDir: string | undefined;
  /** Whether a launched DCC runs in `@dcc/link`'s OS sandbox (false when attached; undefined before `start`). */
  readonly sandboxed: boolean | undefined;
  /** The last recovery copy of a launched DCC's scene (with `recovery`), if one was saved. */
  readonly recoveryCopy: LinkedRecoveryCopy | undefined;
  /** The connection once `start` ran. */
  readonly connection: LinkedConnection | undefined;
  /** Calls a link method directly (`ping`, …); `HOST_GONE` before `start`. */
  call(method: string, params?: Readonly<Record<string, unknown>>): Promise<unknown>;
  /** Launches (or attaches to) the DCC; see {@link DccAdapter.start}. */
  start(context: DccAdapterContext): Promise<void>;
  /** Ends a launched DCC (or closes the attached one's link), also during a stuck call. */
  close(): Promise<void>;
  /** Listens to exits, restarts and back-offs, across restarts. */
  onEvent(listener: (event: LinkedHostEvent) => void): () => void;
}

/**
 * A `DccAdapter` for a DCC behind `@dcc/link`: launched (and restarted after a crash, with the
 * restart notice for the next command and a crash-loop back-off reported through `reportHost`)
 * or attached; each spec a command; link failures and Python `HandlerError`s as `CommandError`s
 * a script can catch; `close` ends a launched DCC, also during a stuck call.
 * @throws {TypeError} without `launch` or `attach`.
 * @throws {CommandSpecError} when a command of `commands` has a spec's name.
 */
export function createLinkedAdapter(options: LinkedAdapterOptions): LinkedAdapter {
  if (options.launch === undefined && options.attach === undefined) {
    throw new TypeError(`createLinkedAdapter (${options.dccName}) needs launch or attach`);
  }
  const displayName = options.displayName ?? options.dccName;
  const create: CreateCommandError = options.createError ?? ((init) => new CommandError(init));
  const listeners = new Set<(event: LinkedHostEvent) => void>();
  let connection: LinkedConnection | undefined;
  // How many times the DCC went away: a transaction begun before never ends on the next one.
  let exits = 0;
  let catalog: DccApiCatalog | undefined;
  const specs = options.specs ?? [];

  const caller: LinkedCaller = {
    call(command, method, params, signal) {
      if (connection === undefined) {
        return Promise.reject(
          create({
            command,
            code: "HOST_GONE",
            message: `${command} did not run: ${displayName} has not been started`,
            completion: "not_started",
          }),
        );
      }
      return connection.call(command, method, params, signal);
    },
  };
  // Read here, so a name both a spec and a command of its own fails at creation, not in the
  // server; read again when the commands are (they may depend on the DCC that started).
  const specNames = new Set(specs.map((spec) => spec.name));
  const ownCommands = (): readonly CommandDefinition[] => {
    const own = options.commands?.(caller) ?? [];
    const twice = own.find((command) => specNames.has(command.name));
    if (twice !== undefined) {
      throw new CommandSpecError({
        message: `createLinkedAdapter (${options.dccName}): "${twice.name}" is both a command spec and one of commands; keep one (a spec marked "image" answers an image itself, and a command of commands is found by search under its own signature and description)`,
        index: specs.findIndex((spec) => spec.name === twice.name),
      });
    }
    return own;
  };
  ownCommands();
  // An image answer becomes a HostImage on the main thread only: an image command is never on
  // the lane (still read-only when marked lane).
  const laneCommands = [
    ...specs
      .filter(
        (spec) =>
          spec.lane === true && spec.image !== true && (spec.method ?? spec.name) === spec.name,
      )
      .map((spec) => spec.name),
    ...(options.laneCommands ?? []),
  ];

  const start = async (context: DccAdapterContext): Promise<void> => {
    const onStatus = (status: Parameters<DccAdapterContext["reportHost"]>[0]): void =>
      context.reportHost(status);
    const attach = options.attach;
    if (attach !== undefined) {
      connection = new LinkedAttachment({
        displayName,
        connectionFile: attach.connectionFile,
        callTimeoutMs: options.callTimeoutMs,
        retryMs: attach.retryMs,
        heartbeat: attach.heartbeat,
        reattachHint: attach.reattachHint,
        onStatus,
        createError: options.createError,
      });
    } else {
      const launch = await (options.launch as () => LinkedLaunch | Promise<LinkedLaunch>)();
      connection = new LinkedHost({
        displayName,
        launch,
        readyTimeoutMs: options.readyTimeoutMs,
        callTimeoutMs: options.callTimeoutMs,
        graceMs: options.graceMs,
        terminateGraceMs: options.terminateGraceMs,
        heartbeat: options.heartbeat,
        restartNote: options.restartNote,
        crashLoop: options.crashLoop,
        recovery: options.recovery,
        onStatus,
        onOutput: options.onOutput,
        createError: options.createError,
      });
    }
    connection.onEvent((event) => {
      if (event.type === "exit") exits += 1;
      for (const listener of listeners) listener(event);
    });
    await connection.start(context.signal);
    await options.afterStart?.(caller, context.signal);
  };

  const specCommand = (spec: LinkedCommandSpec): CommandDefinition => ({
    name: spec.name,
    signature: spec.signature,
    description: spec.description,
    // A lane command is read-only by definition (it may run twice, on another connection).
    ...(spec.lane === true ? { readOnly: true } : {}),
    handler: async (args, context) => {
      const answer = await caller.call(
        spec.name,
        spec.method ?? spec.name,
        keywordArgs(spec.name, args, create),
        context.signal,
      );
      return spec.image === true ? imageAnswer(spec.name, answer, create) : answer;
    },
  });

  const adapter: LinkedAdapter = {
    dccName: options.dccName,
    ...(options.scriptsAtOnce === undefined ? {} : { scriptsAtOnce: options.scriptsAtOnce }),
    get pid() {
      return connection?.pid;
    },
    get launches() {
      return connection?.launches ?? 0;
    },
    get output() {
      return connection?.output ?? "";
    },
    get sessionDir() {
      return connection?.sessionDir;
    },
    get sandboxed() {
      return connection?.sandboxed;
    },
    get recoveryCopy() {
      return connection instanceof LinkedHost ? connection.recoveryCopy : undefined;
    },
    get connection() {
      return connection;
    },
    start,
    dispatchLane(): DispatchLane | undefined {
      if (laneCommands.length === 0) return undefined;
      const reach = connection?.laneAccess();
      if (reach === undefined) return undefined;
      const data: LinkedLaneData = { access: reach.access };
      return {
        module: laneModule,
        data,
        commands: laneCommands,
        key: reach.key,
        closed: reach.closed,
      };
    },
    commands: () => [
      ...specs.map(specCommand),
      // The further lane commands are reads too, unless their definition says otherwise.
      ...ownCommands().map((command) =>
        command.readOnly === undefined && laneCommands.includes(command.name)
          ? { ...command, readOnly: true }
          : command,
      ),
    ],
    catalog: () => {
      catalog ??=
        options.catalog?.() ??
        new DccApiCatalog(options.dccName, {
          commands: [
            ...specs.map((spec) => commandSpecRecord(spec)),
            ...ownCommands().map(ownRecord),
          ],
        });
      return catalog;
    },
    call: (method, params = {}) =>
      caller.call(method, method, params, new AbortController().signal),
    onEvent(listener) {
      const own = (event: LinkedHostEvent): void => {
        try {
          listener(event);
        } catch {
          // A listener's fault is its own.
        }
      };
      listeners.add(own);
      return () => {
        listeners.delete(own);
      };
    },
    async close() {
      await connection?.close();
    },
  };
  const transaction = options.transaction === true ? linkedTransactionMethods : options.transaction;
  if (transaction !== undefined) {
    adapter.beginTransaction = async (init) => {
      const opened = await beginLinkedTransaction(
        {
          displayName,
          caller,
          launches: () => connection?.launches ?? 0,
          exits: () => exits,
        },
        transaction,
        init,
      );
      // A launched DCC keeps its recovery copy from what the transactions report.
      const host = connection instanceof LinkedHost ? connection : undefined;
      if (host === undefined) return opened;
      const token = host.transactionBegan();
      const told = async (report: Promise<DccTransactionReport>) => {
        const settled = await report;
        host.transactionEnded(token, settled);
        return settled;
      };
      return { commit: () => told(opened.commit()), rollback: () => told(opened.rollback()) };
    };
  }
  if (options.instructions !== undefined) adapter.instructions = options.instructions;
  if (options.executeDescription !== undefined) {
    adapter.executeDescription = options.executeDescription;
  }
  return adapter;
}

/**
 * The link methods of a transaction that `transaction: true` calls and `serve(transaction=...)`
 * of `dcc_link` registers (`TRANSACTION_METHODS` there).
 */
export const linkedTransactionMethods: LinkedTransactionMethods = Object.freeze({
  begin: "dcc.transaction.begin",
  end: "dcc.transaction.end",
});

/** A command of its own as a catalog record, like a spec's. */
function ownRecord(command: CommandDefinition): CommandRecord {
  return {
    name: command.name,
    signature: command.signature ?? "",
    description: command.description ?? "",
    ...(command.argsSchema === undefined ? {} : { args: command.argsSchema }),
  };
}

// Built code loads the built lane module; tests, which run the sources, load the source one.
const laneModule = new URL(
  `./internal/linked-dispatch-lane.${import.meta.url.endsWith(".ts") ? "ts" : "js"}`,
  import.meta.url,
).href;
