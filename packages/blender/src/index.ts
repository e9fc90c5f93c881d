/**
 * `@dcc/blender`: the Blender adapter, beside the other DCC adapters above `@dcc/executor` and
 * `@dcc/link`. `createBlenderAdapter` launches and supervises a real Blender (3.4 to 5.2) and
 * serves that Blender's own operators (read from it when it starts) and data-API commands under
 * a policy; `createBlenderCatalog` is Blender's command catalog (every `bpy.ops` operator of a
 * tested Blender, 3.4.1, 4.3.2 or 5.2.2, with a typed signature and a context hint, generated
 * from the real Blender and committed as JSON), which needs no Blender at all. No MCP code: a
 * server from `@dcc/mcp-bridge` serves the adapter.
 */
export type { BlenderAdapter, BlenderAdapterOptions } from "./adapter/blender-adapter.ts";
export { createBlenderAdapter } from "./adapter/blender-adapter.ts";
export type { BlenderCommandErrorOptions } from "./adapter/blender-command-error.ts";
export { BlenderCommandError } from "./adapter/blender-command-error.ts";
export type { BlenderPolicy, BlenderWindow } from "./adapter/blender-launch.ts";
export type { BlenderNotFoundErrorOptions } from "./adapter/blender-not-found-error.ts";
export { BlenderNotFoundError } from "./adapter/blender-not-found-error.ts";
export type { FindBlenderOptions } from "./adapter/find-blender.ts";
export { findBlender } from "./adapter/find-blender.ts";
export type { FindBlenderConnectionOptions } from "./adapter/find-blender-connection.ts";
export { findBlenderConnection } from "./adapter/find-blender-connection.ts";
export type { BlenderCatalogOptions } from "./blender-catalog.ts";
export { createBlenderCatalog } from "./blender-catalog.ts";
export type { BlenderCommandRecord } from "./blender-command-record.ts";
export type { BlenderDataCommand } from "./blender-data-command.ts";
export { blenderDataCommands } from "./blender-data-command.ts";
export type {
  BlenderArea,
  BlenderDefault,
  BlenderMode,
  BlenderOperator,
  BlenderOperatorParameter,
} from "./blender-operator.ts";
export type {
  BlenderOperatorData,
  BlenderOperatorDataOptions,
} from "./blender-operator-data.ts";
export { BLENDER_TESTED_VERSIONS, blenderOperatorData } from "./blender-operator-data.ts";
export { BLENDER_SYNONYMS } from "./blender-synonyms.ts";
export { operatorContextHint } from "./operator-context-hint.ts";
export { operatorSignature } from "./operator-signature.ts";
