import { FarmError } from "./farm-error.ts";
import type { FarmRedisOptions } from "./farm-redis-options.ts";

/** What a command line or a config file says about the farm's Redis; see {@link farmRedisFromSettings}. */
export interface FarmRedisSettings {
  /** `redis://host:port[/db]` or `rediss://…` (TLS). Default: `DCC_FARM_REDIS_URL`, else none. */
  url?: string | undefined;
  /** Key prefix (the workers' `--prefix`). Default: `DCC_FARM_PREFIX`, else the farm's default. */
  prefix?: string | undefined;
  /** TLS even for a `redis:` URL. */
  tls?: boolean | undefined;
}

const prefixPattern = /^[A-Za-z0-9_.:-]{1,64}$/;

/**
 * The farm's Redis from host settings and the environment, with one rule for every entry point
 * (the reference server's `--farm`, `dcc-farm-worker --redis`): the URL from `settings.url` or
 * `DCC_FARM_REDIS_URL`, the password only from `DCC_FARM_REDIS_PASSWORD`. A command line is visible
 * to every user of the machine, so a URL holding a password is refused, and no message repeats
 * the URL's text beyond its host. Undefined when no URL is given anywhere.
 * @throws {@link FarmError} `INVALID_CONFIG` for a URL that is not `redis://` or `rediss://`, one
 *   with a password, an empty `DCC_FARM_REDIS_PASSWORD`, or a bad prefix.
 */
export function farmRedisFromSettings(
  settings: FarmRedisSettings,
  env: Readonly<Record<string, string | undefined>> = process.env,
): FarmRedisOptions | undefined {
  const text = settings.url ?? env["DCC_FARM_REDIS_URL"];
  if (text === undefined) return undefined;
  const invalid = (message: string): FarmError =>
    new FarmError({ code: "INVALID_CONFIG", message });
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw invalid("The farm's Redis needs a URL: redis://host:port or rediss://host:port");
  }
  if (url.protocol !== "redis:" && url.protocol !== "rediss:") {
    throw invalid(
      `The farm's Redis needs a redis:// or rediss:// URL, not ${url.protocol}// (host ${url.host})`,
    );
  }
  if (url.password !== "") {
    throw invalid(
      `The farm's Redis URL (host ${url.host}) holds a password: leave it out and set DCC_FARM_REDIS_PASSWORD instead, so it stays off command lines and process lists`,
    );
  }
  const password = env["DCC_FARM_REDIS_PASSWORD"];
  if (password === "") throw invalid("DCC_FARM_REDIS_PASSWORD is set but empty");
  const prefix = settings.prefix ?? env["DCC_FARM_PREFIX"];
  if (prefix !== undefined && !prefixPattern.test(prefix)) {
    throw invalid(
      `The farm's key prefix must be 1-64 letters, digits, '_', '-', '.' or ':', not ${JSON.stringify(prefix)}`,
    );
  }
  return {
    url: url.href,
    ...(password === undefined ? {} : { password }),
    ...(settings.tls === true ? { tls: true } : {}),
    ...(prefix === undefined ? {} : { prefix }),
  };
}
