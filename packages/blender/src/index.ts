/**
 * `@dcc/blender`: Blender for the toolkit, beside the other DCC adapters above `@dcc/executor`.
 * This part is Blender's command catalog: every `bpy.ops` operator of Blender 3.4.1 with a typed
 * signature and a context hint, generated from the real Blender and committed as JSON, plus the
 * data-API commands, searchable with Blender's vocabulary. It needs no Blender at run time and
 * depends only on `@dcc/catalog`.
 */
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
export type { BlenderOperatorData } from "./blender-operator-data.ts";
export { blenderOperatorData } from "./blender-operator-data.ts";
export { BLENDER_SYNONYMS } from "./blender-synonyms.ts";
export { operatorContextHint } from "./operator-context-hint.ts";
export { operatorSignature } from "./operator-signature.ts";
