/**
 * `@dcc/cancel`: the bottom layer of the toolkit. Cooperative cancellation (tokens, per-job
 * handles, an ambient context), checkpoints and stages, and forceful cancellation of active calls.
 * It depends on no other `@dcc` package.
 */
export { DccMcpError } from "./dcc-mcp-error.ts";
