import { DccMcpCancelledError } from "./dcc-mcp-cancelled-error.ts";

/**
 * Deprecated alias of {@link DccMcpCancelledError}, kept for code ported from the Python API.
 * @deprecated Use {@link DccMcpCancelledError}; the short name is easily confused with other
 * cancellation errors.
 */
export const CancelledError: typeof DccMcpCancelledError = DccMcpCancelledError;

/**
 * Deprecated alias of {@link DccMcpCancelledError}.
 * @deprecated Use {@link DccMcpCancelledError}.
 */
export type CancelledError = DccMcpCancelledError;
