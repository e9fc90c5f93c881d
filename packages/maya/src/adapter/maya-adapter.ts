import { checkCancelled, DccMcpCancelledError } from "@dcc/cancel";
import type { DccApiCatalog } from "@dcc/catalog";
import type { CommandDefinition, DccAdapter, DccTransactionReport } from "@dcc/executor";
import { mayaApprovalRules } from "../approval/maya-approval-rules.ts";
import { createMayaCatalog } from "../catalog/maya-catalog.ts";
import { mayaCommands } from "../catalog/maya-commands.ts";
import { signatureOf } from "../scene/command-spec.ts";
import { MayaScene } from "../scene/maya-scene.ts";
import { SceneError, SceneErrorCode } from "../scene/scene-error.ts";
import { mayaExecuteDescription, mayaInstructions } from "./maya-tool-texts.ts";
import { beginMayaTransaction, type MayaTransaction } from "./maya-transaction.ts";

/** Options for {@link createMayaAdapter}. */
export interface MayaAdapterOptions {
  /** Folder where `file` saves and opens scenes; scene files are disabled without it. */
  dataDir?: string;
  /** Catalog for `dcc_search`; the reference Maya catalog ({@link createMayaCatalog}) by default. */
  catalog?: DccApiCatalog;
}

/** The simulated Maya adapter, with its scene exposed for tests and embedding. */
export interface MayaAdapter extends DccAdapter {
  /** The scene every command acts on. */
  readonly scene: MayaScene;
  /** Names of the commands the simulation implements, sorted. */
  implementedCommands(): string[];
}

/**
 * An adapter whose host is a simulated Maya scene. Every simulated command is registered under
 * its Maya name; every other command of the Maya catalog is registered too and fails with code
 * `NOT_IMPLEMENTED` naming it, so a script learns the difference between "no such Maya command"
 * and "not simulated". Long commands stop at cancellation checkpoints (`checkCancelled()` from
 * `@dcc/cancel`, and the call's abort signal).
 */
export function createMayaAdapter(options: MayaAdapterOptions = {}): MayaAdapter {
  let activeSignal: AbortSignal | undefined;
  const checkpoint = (): void => {
    checkCancelled();
    if (activeSignal?.aborted) {
      throw new DccMcpCancelledError({ reason: String(activeSignal.reason ?? "aborted") });
    }
  };
  const scene = new MayaScene({
    ...(options.dataDir === undefined ? {} : { dataDir: options.dataDir }),
    checkpoint,
  });
  const specs = scene.commandSpecs();
  // The running script's transaction: its undo, redo and undoInfo stay within its own history.
  let transaction: MayaTransaction | undefined;
  const implemented = specs.map((spec) => spec.name);
  let catalog = options.catalog;
  // The rules read the scene in process; a query changes nothing, so no transaction sees it.
  const approvalRules = mayaApprovalRules({
    query: (command, args) => scene.execute(command, args),
    untitledSave: "fails",
  });

  const simulated = specs.map(
    (spec): CommandDefinition => ({
      name: spec.name,
      signature: signatureOf(spec),
      description: spec.summary,
      handler: (args, context) => {
        activeSignal = context.signal;
        try {
          checkpoint();
          return transaction === undefined
            ? scene.execute(spec.name, args)
            : transaction.execute(spec.name, args);
        } finally {
          activeSignal = undefined;
        }
      },
    }),
  );
  const notImplemented = (name: string): CommandDefinition => ({
    name,
    description: "Not simulated by the reference server.",
    handler: () => {
      throw new SceneError({
        code: SceneErrorCode.notImplemented,
        command: name,
        message: `${name} is a Maya command, but the simulated scene does not implement it. Simulated commands: ${implemented.join(", ")}.`,
      });
    },
  });

  return {
    dccName: "maya",
    beginTransaction: async ({ label }) => {
      const begun = beginMayaTransaction(scene, label);
      transaction = begun;
      const ended = (report: DccTransactionReport): DccTransactionReport => {
        if (transaction === begun) transaction = undefined;
        return report;
      };
      return {
        commit: () => begun.commit().then(ended),
        rollback: () => begun.rollback().then(ended),
      };
    },
    approvalRules: () => approvalRules,
    instructions: (tools) => mayaInstructions(implemented, tools),
    executeDescription: (tools) => mayaExecuteDescription(tools.search),
    scene,
    implementedCommands: () => [...implemented],
    commands: () => [
      ...simulated,
      ...mayaCommands()
        .map((record) => record.name)
        .filter((name) => !scene.has(name))
        .map(notImplemented),
    ],
    catalog: () => {
      catalog ??= createMayaCatalog();
      return catalog;
    },
  };
}
