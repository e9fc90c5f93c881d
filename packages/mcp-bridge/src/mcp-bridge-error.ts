import { DccMcpError } from "@dcc/cancel";

/** Stable codes of {@link McpBridgeError}. */
export const McpBridgeErrorCode = {
  /** The server or registration options are inconsistent or unsafe. */
  INVALID_CONFIG: "INVALID_CONFIG",
  /** `start()` was called twice, or after `close()`. */
  INVALID_STATE: "INVALID_STATE",
  /** No adapter of a composed server could start, so there is nothing to serve. */
  START_FAILED: "START_FAILED",
} as const;

/** One of the {@link McpBridgeErrorCode} values. */
export type McpBridgeErrorCode = (typeof McpBridgeErrorCode)[keyof typeof McpBridgeErrorCode];

/** Options for {@link McpBridgeError}. */
export interface McpBridgeErrorOptions {
  /** Human-readable message. */
  message: string;
  /** Stable code. */
  code: McpBridgeErrorCode;
  /** Underlying error, if any. */
  cause?: unknown;
}

/** Thrown for misconfiguration and lifecycle misuse of the bridge's servers. */
export class McpBridgeError extends DccMcpError {
  override readonly name: string = "McpBridgeError";

  constructor(options: McpBridgeErrorOptions) {
    super(options);
  }
}
