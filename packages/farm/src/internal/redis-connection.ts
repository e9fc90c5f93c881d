// FarmRedisOptions → ioredis options, and a bound on every call so an unreachable Redis is an
// error in seconds, not a hang.
import type { RedisOptions } from "ioredis";
import { FarmError } from "../farm-error.ts";
import type { FarmRedisOptions } from "../farm-redis-options.ts";

/** ioredis options for `options`; `blocking` connections (workers, events) retry forever. */
export function toRedisOptions(
  options: FarmRedisOptions,
  blocking: boolean,
): RedisOptions & { host: string; port: number } {
  let url: URL;
  try {
    url = new URL(options.url ?? "redis://127.0.0.1:6379");
  } catch (error) {
    throw new FarmError({ code: "INVALID_CONFIG", message: "Invalid Redis URL", cause: error });
  }
  if (url.protocol !== "redis:" && url.protocol !== "rediss:") {
    throw new FarmError({
      code: "INVALID_CONFIG",
      message: `Redis URL must start with redis:// or rediss://, not ${url.protocol}//`,
    });
  }
  const db = url.pathname.length > 1 ? Number(url.pathname.slice(1)) : 0;
  const password =
    options.password ?? (url.password === "" ? undefined : decodeURIComponent(url.password));
  const username =
    options.username ?? (url.username === "" ? undefined : decodeURIComponent(url.username));
  const tls = options.tls ?? (url.protocol === "rediss:" ? true : undefined);
  return {
    host: url.hostname.replace(/^\[|\]$/g, ""),
    port: url.port === "" ? 6379 : Number(url.port),
    ...(Number.isInteger(db) && db > 0 ? { db } : {}),
    ...(password === undefined ? {} : { password }),
    ...(username === undefined ? {} : { username }),
    ...(tls === undefined || tls === false ? {} : { tls: tls === true ? {} : tls }),
    connectTimeout: 5000,
    // A reconnect attempt at most every 2 s, for as long as it takes.
    retryStrategy: (times: number) => Math.min(200 * times, 2000),
    ...(blocking
      ? { maxRetriesPerRequest: null }
      : { maxRetriesPerRequest: 1, enableOfflineQueue: false }),
  };
}

/** `host:port` for messages (never the password). */
export function describeRedis(options: FarmRedisOptions): string {
  try {
    const url = new URL(options.url ?? "redis://127.0.0.1:6379");
    return `${url.protocol}//${url.host}`;
  } catch {
    return "(invalid Redis URL)";
  }
}

/** Rejects with `REDIS_UNAVAILABLE` when `work` has not settled within `ms`, or fails. */
export async function bounded<T>(work: () => Promise<T>, ms: number, where: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new FarmError({
            code: "REDIS_UNAVAILABLE",
            message: `Redis at ${where} did not answer within ${ms} ms`,
          }),
        ),
      ms,
    );
  });
  try {
    return await Promise.race([work(), timeout]);
  } catch (error) {
    if (error instanceof FarmError) throw error;
    throw new FarmError({
      code: "REDIS_UNAVAILABLE",
      message: `Redis at ${where} failed: ${error instanceof Error ? error.message : String(error)}`,
      cause: error,
    });
  } finally {
    clearTimeout(timer);
  }
}

/** The ioredis clients of a BullMQ queue, worker or event stream (its Redis backend). */
interface BullClients {
  readonly backend: {
    readonly client: Promise<{ disconnect(): void }>;
    readonly blockingClient?: Promise<{ disconnect(): void }> | undefined;
  };
}

/**
 * Ends the ioredis clients under a BullMQ object for good, after its `close()`. With Redis down,
 * BullMQ cannot send `QUIT`: it marks a client ended, yet the client goes on reconnecting (and
 * printing errors), which keeps the process alive. A client that never connected is left to
 * `close()`, which disconnects it; waiting for one is bounded by `ms`.
 */
export async function endClients(owner: BullClients, ms = 1000): Promise<void> {
  const clients = [owner.backend.client, owner.backend.blockingClient];
  await Promise.all(
    clients.map(async (pending) => {
      if (pending === undefined) return;
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<undefined>((resolve) => {
        timer = setTimeout(() => resolve(undefined), ms);
      });
      const client = await Promise.race([pending.catch(() => undefined), timeout]);
      clearTimeout(timer);
      client?.disconnect();
    }),
  );
}
