// The HTTP settings that are refused before anything starts: a short bearer token, and a
// non-loopback bind without one.
import { McpBridgeError } from "../mcp-bridge-error.ts";
import { isLoopbackHost } from "./http-guards.ts";

/** @throws {@link McpBridgeError} `INVALID_CONFIG` when `auth.token` is under 16 characters. */
export function checkAuth(auth: { token: string } | undefined): void {
  if (auth !== undefined && auth.token.length < 16) {
    throw new McpBridgeError({
      code: "INVALID_CONFIG",
      message: "auth.token must be at least 16 characters",
    });
  }
}

/**
 * @throws {@link McpBridgeError} `INVALID_CONFIG` when `host` is not loopback and there is no
 *   `auth` (unless `allowRemoteWithoutAuth`), or when the token is too short.
 */
export function checkListener(options: {
  host?: string;
  auth?: { token: string };
  allowRemoteWithoutAuth?: boolean;
}): void {
  const host = options.host ?? "127.0.0.1";
  if (
    !isLoopbackHost(host) &&
    options.auth === undefined &&
    options.allowRemoteWithoutAuth !== true
  ) {
    throw new McpBridgeError({
      code: "INVALID_CONFIG",
      message: `Binding ${host} exposes the DCC beyond this machine; set auth.token (or allowRemoteWithoutAuth)`,
    });
  }
  checkAuth(options.auth);
}
