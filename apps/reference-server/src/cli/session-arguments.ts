// The HTTP endpoint's session bounds from flags or the environment: how many sessions, how many
// per client (labelled token, else remote address), and when an idle one closes or gives way.

/** A bad session setting. */
export class SessionArgumentError extends Error {
  override readonly name: string = "SessionArgumentError";
}

/** The session bounds that were set (the server's defaults apply to the others). */
export interface SessionBounds {
  maxSessions?: number;
  maxSessionsPerClient?: number;
  sessionIdleMs?: number;
  sessionEvictIdleMs?: number;
}

/**
 * Reads `--max-sessions`, `--max-sessions-per-client`, `--session-idle` and
 * `--session-evict-idle` (seconds), else `DCC_MCP_MAX_SESSIONS`, `DCC_MCP_MAX_SESSIONS_PER_CLIENT`,
 * `DCC_MCP_SESSION_IDLE` and `DCC_MCP_SESSION_EVICT_IDLE`.
 * @throws {@link SessionArgumentError} for a value that is not a whole number in range.
 */
export function sessionArguments(
  values: {
    maxSessions?: string | undefined;
    maxSessionsPerClient?: string | undefined;
    sessionIdle?: string | undefined;
    sessionEvictIdle?: string | undefined;
  },
  env: Readonly<Record<string, string | undefined>>,
): SessionBounds {
  const maxSessions = whole("--max-sessions", values.maxSessions ?? env["DCC_MCP_MAX_SESSIONS"], 1);
  const maxSessionsPerClient = whole(
    "--max-sessions-per-client",
    values.maxSessionsPerClient ?? env["DCC_MCP_MAX_SESSIONS_PER_CLIENT"],
    1,
  );
  const idle = whole("--session-idle", values.sessionIdle ?? env["DCC_MCP_SESSION_IDLE"], 1);
  const evictIdle = whole(
    "--session-evict-idle",
    values.sessionEvictIdle ?? env["DCC_MCP_SESSION_EVICT_IDLE"],
    0,
  );
  return {
    ...(maxSessions === undefined ? {} : { maxSessions }),
    ...(maxSessionsPerClient === undefined ? {} : { maxSessionsPerClient }),
    ...(idle === undefined ? {} : { sessionIdleMs: idle * 1000 }),
    ...(evictIdle === undefined ? {} : { sessionEvictIdleMs: evictIdle * 1000 }),
  };
}

function whole(flag: string, text: string | undefined, least: number): number | undefined {
  if (text === undefined) return undefined;
  const value = Number(text);
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(value) || value < least) {
    throw new SessionArgumentError(`${flag} must be a whole number, at least ${least}: ${text}`);
  }
  return value;
}
