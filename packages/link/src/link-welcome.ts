/** How the host runs calls: inline in a blocking main-thread loop, or pumped from the host's
 * own main-thread timer while a socket thread serves the connection. */
export type HostLoop = "blocking" | "pump";

/** What the host said when it accepted the token. */
export interface LinkWelcome {
  /** Protocol version (1). */
  readonly protocol: number;
  /** The host's loop style; decides how the heartbeat is judged. */
  readonly loop: HostLoop;
  /** The host's process id. */
  readonly pid: number;
  /** The largest frame body the host accepts, in bytes. */
  readonly maxFrameBytes: number;
}
