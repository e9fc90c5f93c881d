import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import type { DccApiCatalog } from "@dcc/catalog";
import { type CommandDefinition, CommandError } from "@dcc/executor";
import type { DccSandboxMode } from "@dcc/link";
import {
  createLinkedAdapter,
  type LinkedAdapter,
  type LinkedCaller,
  type LinkedLaunch,
} from "@dcc/linked-adapter";
import { mayaExecuteDescription } from "../adapter/maya-tool-texts.ts";
import { createMayaCatalog } from "../catalog/maya-catalog.ts";
import { mayaCommands } from "../catalog/maya-commands.ts";
import { findMayapy } from "./find-mayapy.ts";
import { linkedMayaApprovalRules } from "./internal/linked-maya-approval-rules.ts";
import { toMayaCall } from "./internal/maya-call.ts";
import { mayaHostInstructions } from "./maya-host-texts.ts";
import { mayaPolicyRefusal } from "./maya-policy.ts";

/** Options for {@link createLinkedMayaAdapter}. */
export interface LinkedMayaAdapterOptions {
  /**
   * The data folder (absolute) of a launched `mayapy`: files stay inside it. An attached Maya
   * says its own (the plug-in's `DCC_MAYA_DATA_DIR`).
   */
  dataDir?: string | undefined;
  /** The `mayapy` to launch; else `MAYAPY_BIN`, `$MAYA_LOCATION/bin/mayapy`, `PATH`. */
  mayapy?: string | undefined;
  /** Attach to the user's Maya running the `dcc_maya_link` plug-in instead of launching one. */
  attach?: { connectionFile: string; retryMs?: number | undefined } | undefined;
  /** Policy rules to lift (e.g. `["data-folder"]`): for both walls. */
  allow?: readonly string[] | undefined;
  /** More environment for a launched `mayapy`. */
  env?: Readonly<Record<string, string>> | undefined;
  /**
   * More options for the launched `mayapy` process, passed to `@dcc/link`'s `DccProcess` as
   * they are (`transport`, `tokenVia`, `processGroup`, and what the link adds later, such as a
   * sandbox).
   */
  processOptions?: Omit<LinkedLaunch, "command" | "args" | "env"> | undefined;
  /** Catalog for `dcc_search`; the reference Maya catalog by default. */
  catalog?: DccApiCatalog | undefined;
  /** Bound on launch-to-ready (Maya is slow to initialize). Default 180000 ms. */
  readyTimeoutMs?: number | undefined;
  /** Deadline of one command. Default 300000 ms. */
  callTimeoutMs?: number | undefined;
  /** How long a command may take to stop after a cancel before Maya is ended. Default 2000 ms. */
  graceMs?: number | undefined;
  /** How long Maya may take to exit after SIGTERM before SIGKILL. Default 5000 ms. */
  terminateGraceMs?: number | undefined;
  /** Sees what a launched Maya prints. */
  onOutput?: ((text: string, stream: "stdout" | "stderr") => void) | undefined;
  /**
   * The OS sandbox around a launched `mayapy` (`@dcc/link`, bubblewrap on Linux): `auto`
   * where it works, `on`, or `off`; unset, `DCC_SANDBOX` decides, else `auto`. Sandboxed, Maya sees the system, its install,
   * this package's Python and the data folder (writable), and has no network (a network
   * license server is then out of reach: use `off`). Paths in `processOptions.sandboxPaths` are
   * shown too. An attached Maya is never sandboxed.
   */
  sandbox?: DccSandboxMode | undefined;
}

/** The headless start-up script `mayapy` runs. */
export const mayaStartupScript: string = fileURLToPath(
  new URL("../../python/dcc_maya/startup.py", import.meta.url),
);

/**
 * A `DccAdapter` driving a real Maya over `@dcc/link` (built on `@dcc/linked-adapter`):
 * headless `mayapy` launched and restarted after a crash, or the user's Maya through the
 * `dcc_maya_link` plug-in. Every catalog command is sent to `maya.cmds` by name with the
 * simulated adapter's argument convention; the policy refuses before the call (and the Maya
 * side again); each script runs in one undo chunk, undone when it fails.
 * @throws {TypeError} without `dataDir` or `attach`.
 */
export function createLinkedMayaAdapter(options: LinkedMayaAdapterOptions): LinkedAdapter {
  if (options.attach === undefined && options.dataDir === undefined) {
    throw new TypeError("A launched Maya needs a data folder for its files (dataDir, --data-dir)");
  }
  let dataDir = options.dataDir;
  const allow = options.allow ?? [];
  // The link, once Maya is up: the approval rules read the scene through it.
  let link: LinkedCaller | undefined;
  const commands = (caller: LinkedCaller): CommandDefinition[] =>
    mayaCommands().map((record) => ({
      name: record.name,
      signature: record.signature,
      ...(record.description === undefined ? {} : { description: record.description }),
      handler: (raw, context) => {
        const call = toMayaCall(raw);
        const refusal =
          dataDir === undefined
            ? undefined
            : mayaPolicyRefusal(record.name, call, { dataDir, allow });
        if (refusal !== undefined) {
          throw new CommandError({
            command: record.name,
            code: "POLICY",
            message: refusal.message,
            data: { rule: refusal.rule },
            completion: "not_started",
          });
        }
        return caller.call(
          record.name,
          "maya.cmd",
          { command: record.name, args: call.args, flags: call.flags },
          context.signal,
        );
      },
    }));
  const attached = options.attach !== undefined;
  const adapter = createLinkedAdapter({
    dccName: "maya",
    displayName: "Maya",
    ...(options.attach === undefined
      ? {
          launch: () => ({
            ...options.processOptions,
            command: findMayapy({ mayapy: options.mayapy }),
            args: [mayaStartupScript],
            env: {
              ...options.env,
              DCC_MAYA_DATA_DIR: dataDir as string,
              DCC_MAYA_POLICY: JSON.stringify({ allow }),
            },
            sandbox: options.sandbox ?? options.processOptions?.sandbox,
            // The sandbox shows Maya this package's Python and the data folder, and what else
            // `processOptions` names.
            sandboxPaths: {
              readOnly: [
                dirname(dirname(mayaStartupScript)),
                ...(options.processOptions?.sandboxPaths?.readOnly ?? []),
              ],
              readWrite: [
                dataDir as string,
                ...(options.processOptions?.sandboxPaths?.readWrite ?? []),
              ],
            },
          }),
        }
      : {
          attach: {
            connectionFile: options.attach.connectionFile,
            retryMs: options.attach.retryMs,
            reattachHint: "load the dcc_maya_link plug-in in Maya again",
          },
        }),
    commands,
    catalog: () => options.catalog ?? createMayaCatalog(),
    readyTimeoutMs: options.readyTimeoutMs ?? 180_000,
    callTimeoutMs: options.callTimeoutMs,
    graceMs: options.graceMs,
    terminateGraceMs: options.terminateGraceMs,
    onOutput: options.onOutput,
    restartNote: "with a new, empty scene (unsaved changes are lost)",
    // One undo chunk per script: closed as one named step, or closed and undone.
    transaction: { begin: "maya.undo.open", end: "maya.undo.close" },
    instructions: (tools) => mayaHostInstructions(tools, attached),
    executeDescription: (tools) => mayaExecuteDescription(tools.search),
    afterStart: async (caller, signal) => {
      link = caller;
      // The Maya side's own data folder: an attached Maya's is the plug-in's.
      const ping = (await caller.call("maya.ping", "maya.ping", {}, signal)) as {
        dataDir?: unknown;
      };
      if (typeof ping.dataDir === "string") dataDir = ping.dataDir;
    },
  });
  const approvalRules = linkedMayaApprovalRules(() => ({ caller: link, dataDir, allow }));
  adapter.approvalRules = () => approvalRules;
  return adapter;
}
