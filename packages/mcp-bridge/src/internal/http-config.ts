// The HTTP settings that are refused before anything starts: a short bearer token, labelled
// tokens that clash, and a non-loopback bind without a token. Messages name labels and positions,
// never a token's text.
import type { LabelledToken } from "../labelled-token.ts";
import { McpBridgeError } from "../mcp-bridge-error.ts";
import { isLoopbackHost } from "./http-guards.ts";

/** The bearer tokens an HTTP endpoint accepts: one unlabelled `token`, labelled `tokens`, or both. */
export interface HttpAuth {
  token?: string | undefined;
  tokens?: ReadonlyArray<LabelledToken> | undefined;
}

/** The `auth` option of the HTTP endpoint from a composed server's `token` and `tokens`. */
export function authOf(
  token: string | undefined,
  tokens: ReadonlyArray<LabelledToken> | undefined,
): { token?: string; tokens?: ReadonlyArray<LabelledToken> } | undefined {
  if (token === undefined && tokens === undefined) return undefined;
  return {
    ...(token === undefined ? {} : { token }),
    ...(tokens === undefined ? {} : { tokens }),
  };
}

const labelPattern = /^[A-Za-z0-9_.@-]{1,64}$/;

function invalid(message: string): McpBridgeError {
  return new McpBridgeError({ code: "INVALID_CONFIG", message });
}

/**
 * @throws {@link McpBridgeError} `INVALID_CONFIG` when a token is under 16 characters, a label is
 *   malformed, two entries share a label or a token, or `auth` holds no token at all.
 */
export function checkAuth(auth: HttpAuth | undefined): void {
  if (auth === undefined) return;
  if (auth.token !== undefined && auth.token.length < 16) {
    throw invalid("auth.token must be at least 16 characters");
  }
  const tokens = auth.tokens ?? [];
  if (auth.token === undefined && tokens.length === 0) {
    throw invalid("auth needs a token or at least one labelled token in auth.tokens");
  }
  const labels = new Map<string, number>();
  const secrets = new Map<string, string>();
  if (auth.token !== undefined) secrets.set(auth.token, "the unlabelled token");
  tokens.forEach((entry, index) => {
    const where = `auth.tokens[${index}]`;
    if (typeof entry?.label !== "string" || !labelPattern.test(entry.label)) {
      throw invalid(`${where}: the label must be 1-64 letters, digits, "_", "-", "." or "@"`);
    }
    if (typeof entry.token !== "string" || entry.token.length < 16) {
      throw invalid(`${where} (label ${entry.label}): the token must be at least 16 characters`);
    }
    const first = labels.get(entry.label);
    if (first !== undefined) {
      throw invalid(`${where}: the label ${entry.label} is already used by auth.tokens[${first}]`);
    }
    labels.set(entry.label, index);
    const holder = secrets.get(entry.token);
    if (holder !== undefined) {
      throw invalid(`${where} (label ${entry.label}): the same token as ${holder}`);
    }
    secrets.set(entry.token, `label ${entry.label}`);
  });
}

/**
 * @throws {@link McpBridgeError} `INVALID_CONFIG` when `host` is not loopback and there is no
 *   `auth` (unless `allowRemoteWithoutAuth`), or when the token is too short.
 */
export function checkListener(options: {
  host?: string;
  auth?: HttpAuth;
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
      message: `Binding ${host} exposes the DCC beyond this machine; set auth.token or auth.tokens (or allowRemoteWithoutAuth)`,
    });
  }
  checkAuth(options.auth);
}

/**
 * @throws {@link McpBridgeError} `INVALID_CONFIG` when a session setting is not a whole number in
 *   range: `maxSessions` and `maxSessionsPerClient` at least 1, the times at least 0.
 */
export function checkSessionSettings(options: {
  sessionIdleMs?: number | undefined;
  sessionEvictIdleMs?: number | undefined;
  maxSessions?: number | undefined;
  maxSessionsPerClient?: number | undefined;
}): void {
  for (const [name, least] of [
    ["sessionIdleMs", 0],
    ["sessionEvictIdleMs", 0],
    ["maxSessions", 1],
    ["maxSessionsPerClient", 1],
  ] as const) {
    const value = options[name];
    if (value !== undefined && (!Number.isSafeInteger(value) || value < least)) {
      throw invalid(`${name} must be a whole number, at least ${least}: ${String(value)}`);
    }
  }
}
