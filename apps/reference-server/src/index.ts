/**
 * `@dcc/reference-server`: the top of the stack. Wires `@dcc/catalog`, `@dcc/executor` and
 * `@dcc/mcp-bridge` into an MCP server for a Maya-style catalog and a simulated scene.
 */

export type { MayaCatalogOptions } from "./catalog/maya-catalog.ts";
export { createMayaCatalog } from "./catalog/maya-catalog.ts";
export type { MayaCommandRecord } from "./catalog/maya-command-record.ts";
export { mayaCommands } from "./catalog/maya-commands.ts";
export { MAYA_SYNONYMS } from "./catalog/maya-synonyms.ts";
export type { MinimalServerHandle, MinimalServerOptions } from "./minimal-server.ts";
export { startMinimalServer } from "./minimal-server.ts";
