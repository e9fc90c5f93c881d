/**
 * `@dcc/linked-adapter`: the kit for a DCC adapter over `@dcc/link`. It sits above
 * `@dcc/executor` and `@dcc/link` and below the adapters (`@dcc/blender`, `@dcc/maya`):
 * `createLinkedAdapter` turns a launch (or a plug-in's connection file) and a list of command
 * specs into a `DccAdapter` that restarts a crashed DCC, tells the next command it was restarted,
 * backs off a crash loop, and maps link failures and the DCC's own errors into `CommandError`s.
 * `prepareLinkedLaunch` builds the launch (executable, data folder, Python path, sandbox paths).
 * The pieces (`LinkedHost`, `LinkedAttachment`, `linkCommandError`, `readCommandSpecs`, …) are
 * exported for adapters that need more. The DCC side registers the same specs with
 * `serve` (or `register_commands`) from `@dcc/link`'s Python package `dcc_link`.
 */

export type { CommandSpecErrorOptions } from "./command-spec-error.ts";
export { CommandSpecError } from "./command-spec-error.ts";
export type {
  LinkedAdapter,
  LinkedAdapterOptions,
  LinkedAttachOptions,
} from "./create-linked-adapter.ts";
export { createLinkedAdapter, linkedTransactionMethods } from "./create-linked-adapter.ts";
export { keywordArgs } from "./keyword-args.ts";
export type { CreateCommandError, LinkCommandErrorOptions } from "./link-command-error.ts";
export { isHostGone, linkCommandError } from "./link-command-error.ts";
export type { LinkedAttachmentOptions } from "./linked-attachment.ts";
export { LinkedAttachment } from "./linked-attachment.ts";
export type { LinkedCaller } from "./linked-caller.ts";
export type { LinkedCommandSpec } from "./linked-command-spec.ts";
export { checkCommandSpecs, commandSpecRecord, readCommandSpecs } from "./linked-command-spec.ts";
export type {
  LinkedConnection,
  LinkedHostEvent,
  LinkedLaneAccess,
} from "./linked-connection.ts";
export type { LinkedCrashLoop, LinkedHostOptions, LinkedLaunch } from "./linked-host.ts";
export { LinkedHost } from "./linked-host.ts";
export type { LinkedRecoveryCopy, LinkedRecoveryMethods } from "./linked-recovery.ts";
export type { LinkedTransactionHost, LinkedTransactionMethods } from "./linked-transaction.ts";
export { beginLinkedTransaction } from "./linked-transaction.ts";
export type { PrepareLinkedLaunchOptions } from "./prepare-linked-launch.ts";
export { prepareLinkedLaunch } from "./prepare-linked-launch.ts";
