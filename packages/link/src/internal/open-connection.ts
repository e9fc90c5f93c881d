import { connect } from "node:net";
import type { LinkEndpoint } from "../link-endpoint.ts";
import { LinkError } from "../link-error.ts";
import type { LinkWelcome } from "../link-welcome.ts";
import { type CloseReason, FramedConnection } from "./framed-connection.ts";
import { helloFrame, protocolVersion } from "./protocol.ts";

/** Options for {@link openConnection}. */
export interface OpenConnectionOptions {
  readonly endpoint: LinkEndpoint;
  readonly token: string;
  readonly maxFrameBytes: number;
  /** Bound on connecting and the handshake together. */
  readonly timeoutMs: number;
  /** Gives up at once (`LINK_CLOSED`) when it aborts: the link is being closed. */
  readonly signal?: AbortSignal | undefined;
}

const isReset = (cause: unknown): boolean => {
  const code = (cause as NodeJS.ErrnoException | undefined)?.code;
  return code === "ECONNRESET" || code === "EPIPE";
};

/** Human-readable endpoint, for messages. */
export function describeEndpoint(endpoint: LinkEndpoint): string {
  return endpoint.kind === "unix" ? endpoint.path : `${endpoint.host}:${endpoint.port}`;
}

/**
 * Connects, sends the token and waits for the host's welcome, all within `timeoutMs`.
 * @throws {LinkError} `CONNECT_FAILED`, `AUTH_FAILED` (closed before the welcome),
 *   `LINK_TIMEOUT`, `BAD_FRAME`, `FRAME_TOO_LARGE` or `PROTOCOL_MISMATCH`, all `not_started`.
 */
export function openConnection(
  options: OpenConnectionOptions,
): Promise<{ connection: FramedConnection; welcome: LinkWelcome }> {
  const { endpoint } = options;
  const where = describeEndpoint(endpoint);
  return new Promise((resolve, reject) => {
    const socket =
      endpoint.kind === "unix"
        ? connect({ path: endpoint.path })
        : connect({ host: endpoint.host, port: endpoint.port, noDelay: true });
    let connected = false;
    let settled = false;
    const onAbort = (): void => fail({ code: "LINK_CLOSED", message: "The link was closed" });
    const fail = (reason: CloseReason): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal?.removeEventListener("abort", onAbort);
      connection.destroy(reason);
      const { code, message, cause } = reason;
      reject(new LinkError({ code, message, cause, completion: "not_started" }));
    };
    const timer = setTimeout(() => {
      const step = connected ? "get a welcome from" : "connect to";
      fail({
        code: "LINK_TIMEOUT",
        message: `Could not ${step} ${where} in ${options.timeoutMs} ms`,
      });
    }, options.timeoutMs);
    const connection = new FramedConnection(socket, options.maxFrameBytes, {
      frame(frame) {
        if (frame.type !== "welcome") {
          fail({
            code: "BAD_FRAME",
            message: `Expected a welcome from ${where}, got ${frame.type}`,
          });
        } else if (frame.welcome.protocol !== protocolVersion) {
          const message = `${where} speaks protocol ${frame.welcome.protocol}, not ${protocolVersion}`;
          fail({ code: "PROTOCOL_MISMATCH", message });
        } else if (!settled) {
          settled = true;
          clearTimeout(timer);
          options.signal?.removeEventListener("abort", onAbort);
          resolve({ connection, welcome: frame.welcome });
        }
      },
      close(reason) {
        if (!connected) {
          const detail = reason.cause instanceof Error ? `: ${reason.cause.message}` : "";
          fail({ code: "CONNECT_FAILED", message: `Could not connect to ${where}${detail}` });
        } else if (reason.code === "HOST_GONE" && isReset(reason.cause)) {
          // A host dying under us resets the connection; a host refusing a token closes it.
          fail({
            code: "HOST_GONE",
            message: `${where} reset the connection during the handshake`,
          });
        } else if (reason.code === "HOST_GONE") {
          const message = `${where} closed the connection before the handshake completed (wrong token, or the host is stopping)`;
          fail({ code: "AUTH_FAILED", message });
        } else {
          fail(reason);
        }
      },
    });
    if (options.signal?.aborted) onAbort();
    else options.signal?.addEventListener("abort", onAbort, { once: true });
    socket.once("connect", () => {
      connected = true;
      connection.send(helloFrame(options.token));
    });
  });
}
