/**
 * `@dcc/reference-server`: the top of the stack. Serves the adapters it knows (the simulated Maya
 * scene of `@dcc/maya` by default) over MCP with `@dcc/mcp-bridge`.
 */

export type { UnknownDccErrorOptions } from "./adapters/unknown-dcc-error.ts";
export { UnknownDccError } from "./adapters/unknown-dcc-error.ts";
export type { ReferenceAuditOptions } from "./server/reference-audit.ts";
export type { ReferenceServer, ReferenceServerOptions } from "./server/reference-server.ts";
export { createReferenceServer } from "./server/reference-server.ts";
