/** Codes of the errors the link raises, by name. A remote handler's own code is kept apart, on
 * {@link RemoteCallError.remoteCode}. */
export const linkErrorCodes: {
  /** The host could not be reached: no socket at the path, connection refused. */
  readonly connectFailed: "CONNECT_FAILED";
  /** The host closed the connection before the handshake completed: a wrong token. */
  readonly authFailed: "AUTH_FAILED";
  /** A deadline passed: connecting, the handshake, or a call. */
  readonly timeout: "LINK_TIMEOUT";
  /** The connection to the host was lost, or the host process exited. */
  readonly hostGone: "HOST_GONE";
  /** The heartbeat says the host no longer serves the link (see the README). */
  readonly hostUnresponsive: "HOST_UNRESPONSIVE";
  /** Not started: the queue is full, or an abandoned call still holds the host. */
  readonly hostBusy: "HOST_BUSY";
  /** A frame is over the size limit of the side that refused it. */
  readonly frameTooLarge: "FRAME_TOO_LARGE";
  /** A frame is not a length-prefixed UTF-8 JSON object the protocol knows. */
  readonly badFrame: "BAD_FRAME";
  /** The host's handler failed; its own code is on {@link RemoteCallError}. */
  readonly remoteError: "REMOTE_ERROR";
  /** The caller's signal aborted the call. */
  readonly cancelled: "CANCELLED";
  /** The link was closed by its owner. */
  readonly closed: "LINK_CLOSED";
  /** An endpoint that is not loopback (or a Unix socket) was refused. */
  readonly notLoopback: "NOT_LOOPBACK";
  /** The two sides speak different protocol versions. */
  readonly protocolMismatch: "PROTOCOL_MISMATCH";
} = {
  connectFailed: "CONNECT_FAILED",
  authFailed: "AUTH_FAILED",
  timeout: "LINK_TIMEOUT",
  hostGone: "HOST_GONE",
  hostUnresponsive: "HOST_UNRESPONSIVE",
  hostBusy: "HOST_BUSY",
  frameTooLarge: "FRAME_TOO_LARGE",
  badFrame: "BAD_FRAME",
  remoteError: "REMOTE_ERROR",
  cancelled: "CANCELLED",
  closed: "LINK_CLOSED",
  notLoopback: "NOT_LOOPBACK",
  protocolMismatch: "PROTOCOL_MISMATCH",
} as const;

/** One of {@link linkErrorCodes}. */
export type LinkErrorCode = (typeof linkErrorCodes)[keyof typeof linkErrorCodes];
