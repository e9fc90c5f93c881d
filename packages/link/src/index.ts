/**
 * `@dcc/link`: a framed, bounded, authenticated RPC link from Node to a DCC process, and the
 * process launcher around it. It sits above `@dcc/cancel` (its only `@dcc` dependency) and below
 * the DCC adapters (`@dcc/blender`, `@dcc/maya`). Its DCC-neutral Python side ships in
 * `python/dcc_link` (see {@link linkPythonPath}).
 */

export type { CallCompletion } from "./call-completion.ts";
export type { DccLaunchErrorCode, DccLaunchErrorOptions } from "./dcc-launch-error.ts";
export { DccLaunchError } from "./dcc-launch-error.ts";
export { DccProcess } from "./dcc-process.ts";
export type {
  DccProcessOptions,
  DccProcessState,
  DccSandboxMode,
  DccSandboxPaths,
} from "./dcc-process-options.ts";
export type { DccSandboxModeOptions } from "./dcc-sandbox-mode.ts";
export { dccSandboxMode } from "./dcc-sandbox-mode.ts";
export type { DccSandboxSupport } from "./dcc-sandbox-support.ts";
export { dccSandboxSupport } from "./dcc-sandbox-support.ts";
export type { ForcefulCallOptions } from "./forceful-call.ts";
export { forcefulCall } from "./forceful-call.ts";
export { LinkClient } from "./link-client.ts";
export type {
  AbandonedCall,
  LinkCallOptions,
  LinkClientOptions,
  LinkDisconnect,
  LinkHeartbeatOptions,
  LinkReconnectOptions,
  LinkState,
} from "./link-client-options.ts";
export type { LinkEndpoint } from "./link-endpoint.ts";
export { assertLoopbackEndpoint, isLoopbackAddress } from "./link-endpoint.ts";
export type { LinkErrorOptions } from "./link-error.ts";
export { LinkError } from "./link-error.ts";
export type { LinkErrorCode } from "./link-error-code.ts";
export { linkErrorCodes } from "./link-error-code.ts";
export type { HostLoop, LinkWelcome } from "./link-welcome.ts";
export { linkPythonPath } from "./python-path.ts";
export type { RemoteCallErrorOptions } from "./remote-call-error.ts";
export { RemoteCallError } from "./remote-call-error.ts";
export type { ExecutableSearch, SearchExecutableOptions } from "./search-executable.ts";
export { searchExecutable } from "./search-executable.ts";
export type { SweepStaleFoldersOptions } from "./sweep-stale-folders.ts";
export { processAlive, sweepStaleFolders } from "./sweep-stale-folders.ts";
export type {
  LinkAccess,
  OpenSyncLinkOptions,
  SyncCallOutcome,
  SyncCallWait,
} from "./sync-link.ts";
export { openSyncLink, SyncLink } from "./sync-link.ts";
