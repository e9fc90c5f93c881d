/**
 * `@dcc/reference-server`: the top of the stack. Wires `@dcc/catalog`, `@dcc/executor` and
 * `@dcc/mcp-bridge` into an MCP server for a Maya-style catalog and a simulated scene.
 */

export type { MinimalServerHandle, MinimalServerOptions } from "./minimal-server.ts";
export { startMinimalServer } from "./minimal-server.ts";
