// The HTTP endpoint's own settings, picked out of a composed server's options so that the
// composition's settings (adapters, limits, …) do not travel on to the handler.
import type { McpHttpHandlerOptions } from "../mcp-http-handler.ts";

type HttpSettings = Pick<
  McpHttpHandlerOptions,
  | "path"
  | "allowedHosts"
  | "allowedOrigins"
  | "maxBodyBytes"
  | "sessionIdleMs"
  | "sessionEvictIdleMs"
  | "maxSessions"
  | "maxSessionsPerClient"
  | "shutdownGraceMs"
>;

const keys = [
  "path",
  "allowedHosts",
  "allowedOrigins",
  "maxBodyBytes",
  "sessionIdleMs",
  "sessionEvictIdleMs",
  "maxSessions",
  "maxSessionsPerClient",
  "shutdownGraceMs",
] as const satisfies ReadonlyArray<keyof HttpSettings>;

/** The settings of {@link HttpSettings} that are set in `options`. */
export function pickHttpSettings(options: HttpSettings): HttpSettings {
  const picked: Record<string, unknown> = {};
  for (const key of keys) if (options[key] !== undefined) picked[key] = options[key];
  return picked as HttpSettings;
}
