// The farm's Redis from `--farm` (or `DCC_FARM_REDIS_URL`), its password from
// `DCC_FARM_REDIS_PASSWORD` only: a command line is visible to every user of the machine, so a
// URL with a password is refused, and no message repeats the URL's text.
import type { FarmRedisOptions } from "@dcc/farm";

/** A bad farm setting; the message never holds the URL's password. */
export class FarmArgumentError extends Error {
  override readonly name: string = "FarmArgumentError";
}

const prefixPattern = /^[A-Za-z0-9_.:-]{1,64}$/;

/**
 * The farm's Redis, or undefined without `--farm` and `DCC_FARM_REDIS_URL`.
 * @throws {@link FarmArgumentError} for a URL that is not `redis://` or `rediss://`, one with a
 *   password, an empty password variable, or a bad prefix.
 */
export function farmRedis(
  values: { farm?: string | undefined; prefix?: string | undefined },
  env: Readonly<Record<string, string | undefined>>,
): FarmRedisOptions | undefined {
  const text = values.farm ?? env["DCC_FARM_REDIS_URL"];
  if (text === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new FarmArgumentError(
      "--farm needs a Redis URL: redis://host:port or rediss://host:port",
    );
  }
  if (url.protocol !== "redis:" && url.protocol !== "rediss:") {
    throw new FarmArgumentError(
      `--farm needs a redis:// or rediss:// URL, not ${url.protocol}// (host ${url.host})`,
    );
  }
  if (url.password !== "") {
    throw new FarmArgumentError(
      `The farm's Redis URL (host ${url.host}) holds a password: leave it out and set DCC_FARM_REDIS_PASSWORD instead, so it stays off command lines and process lists`,
    );
  }
  const password = env["DCC_FARM_REDIS_PASSWORD"];
  if (password === "") {
    throw new FarmArgumentError("DCC_FARM_REDIS_PASSWORD is set but empty");
  }
  const prefix = values.prefix ?? env["DCC_FARM_PREFIX"];
  if (prefix !== undefined && !prefixPattern.test(prefix)) {
    throw new FarmArgumentError(
      "--farm-prefix must be 1-64 letters, digits, '_', '-', '.' or ':' (as the workers' --prefix)",
    );
  }
  return {
    url: url.href,
    ...(password === undefined ? {} : { password }),
    ...(prefix === undefined ? {} : { prefix }),
  };
}
