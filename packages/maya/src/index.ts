/**
 * `@dcc/maya`: the Maya adapter package, above `@dcc/executor` and below `@dcc/mcp-bridge`. The
 * reference `maya.cmds` catalog (`createMayaCatalog`, `mayaCommands`, `MAYA_SYNONYMS`), the
 * simulated Maya scene (`MayaScene`) and the `DccAdapter` that serves it (`createMayaAdapter`).
 * No MCP code: a server from `@dcc/mcp-bridge` serves the adapter.
 */
export type { MayaAdapter, MayaAdapterOptions } from "./adapter/maya-adapter.ts";
export { createMayaAdapter } from "./adapter/maya-adapter.ts";
export type { MayaCatalogOptions } from "./catalog/maya-catalog.ts";
export { createMayaCatalog } from "./catalog/maya-catalog.ts";
export type { MayaCommandRecord } from "./catalog/maya-command-record.ts";
export { mayaCommands } from "./catalog/maya-commands.ts";
export { MAYA_SYNONYMS } from "./catalog/maya-synonyms.ts";
export type { LinkedMayaAdapterOptions } from "./host/create-linked-maya-adapter.ts";
export { createLinkedMayaAdapter, mayaStartupScript } from "./host/create-linked-maya-adapter.ts";
export type { FindMayapyOptions } from "./host/find-mayapy.ts";
export { findMayapy } from "./host/find-mayapy.ts";
export type { MayaNotFoundErrorOptions } from "./host/maya-not-found-error.ts";
export { MayaNotFoundError } from "./host/maya-not-found-error.ts";
export type { MayaPolicyOptions, MayaPolicyRefusal } from "./host/maya-policy.ts";
export { mayaPolicyRefusal, mayaPolicyRules } from "./host/maya-policy.ts";
export type { SceneCall, SceneCommandSpec } from "./scene/command-spec.ts";
export type { MayaSceneOptions } from "./scene/maya-scene.ts";
export { MayaScene } from "./scene/maya-scene.ts";
export type { SceneErrorCodeValue, SceneErrorOptions } from "./scene/scene-error.ts";
export { SceneError, SceneErrorCode } from "./scene/scene-error.ts";
export type { NodeData, SceneState } from "./scene/scene-state.ts";
