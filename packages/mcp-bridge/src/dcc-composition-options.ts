import type { AdapterApprovalOptions, DccAdapter, ExecutorLimits } from "@dcc/executor";
import type { DccServerOptions } from "./dcc-server-options.ts";

/** One adapter with settings of its own, e.g. two instances of one DCC on one server. */
export interface DccAdapterRegistration {
  /** The adapter. */
  adapter: DccAdapter;
  /**
   * Instance name: the tool prefix when the server hosts several adapters (`maya` →
   * `maya_search`, `maya_execute`) and the DCC name in messages and job records. Default the
   * adapter's `dccName`. Names must be distinct.
   */
  name?: string;
  /** Search tool name. Default `dcc_search`, or `<name>_search` with several adapters. */
  searchToolName?: string;
  /** Execute tool name. Default `dcc_execute`, or `<name>_execute` with several adapters. */
  executeToolName?: string;
  /** Sandbox limits of this adapter's executor, applied over the server's `limits`. */
  limits?: Partial<ExecutorLimits>;
  /** Folder for this adapter's materialized scripts. Default the server's `scriptsDir`. */
  scriptsDir?: string;
}

/**
 * What a server composed from adapters is built from: the adapters and the executor settings,
 * plus the {@link DccServerOptions} of the MCP side (`name`, `version`, `instructions`, `setup`,
 * job and result bounds).
 */
export interface DccCompositionOptions extends Omit<DccServerOptions, "executors"> {
  /**
   * The DCCs to serve. With one, the tools are `dcc_search` and `dcc_execute`; with several,
   * each gets its own pair under its name (`maya_search`, `maya_execute`, `echo_search`, …),
   * with its own catalog, commands, sandbox, limits and jobs.
   */
  adapters: ReadonlyArray<DccAdapter | DccAdapterRegistration>;
  /**
   * Replaces the instructions sent in `initialize`. Default: the adapter's own with one adapter;
   * with several, a list of the pairs followed by each adapter's instructions.
   */
  instructions?: string;
  /** Overrides of the default sandbox limits, for every adapter's executor. */
  limits?: Partial<ExecutorLimits>;
  /**
   * Folder for materialized scripts: a script that only defines a typed `main` is stored there
   * and can be called again with `file_path` + `params`. Disabled without it.
   */
  scriptsDir?: string;
  /**
   * Approval rules to turn on for every adapter (`--ask delete,overwrite`): a script's command
   * under one waits until a person answers through the client (`elicitation/create` on
   * 2025-11-25, an `input_required` result on 2026-07-28), and fails with `APPROVAL_DENIED` on a
   * no, no answer within `timeoutSecs` (default 120), or a client that cannot ask anybody. Async
   * and queued jobs have nobody to ask: only the rules their call pre-approves
   * (`_meta.dcc.preapproved`) pass.
   */
  approval?: AdapterApprovalOptions;
  /** How long an adapter's `start` may take before it counts as failed, in ms. Default 60 000. */
  startTimeoutMs?: number;
  /** How long shutdown waits for cancelled work to stop, in ms. Default 2000. */
  shutdownGraceMs?: number;
}
