// Request checks that run before the MCP transport sees a request: Host and Origin against DNS
// rebinding, bearer tokens (one, or several with labels) compared in constant time, and a bounded body read.
import { createHash, timingSafeEqual } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";

const loopbackNames = ["localhost", "127.0.0.1", "[::1]", "::1"];

/** True when `host` is a loopback address or name. */
export function isLoopbackHost(host: string): boolean {
  return loopbackNames.includes(host.toLowerCase()) || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/** Host names (no port) the server answers to. */
export function defaultAllowedHosts(bindHost: string): string[] {
  const names = new Set(loopbackNames);
  if (!isLoopbackHost(bindHost) && bindHost !== "0.0.0.0" && bindHost !== "::")
    names.add(bindHost.toLowerCase());
  return [...names];
}

/** The host name of a Host header without its port, lower-cased; undefined when malformed. */
export function hostnameOf(hostHeader: string | undefined): string | undefined {
  if (hostHeader === undefined || hostHeader === "") return undefined;
  try {
    return new URL(`http://${hostHeader}`).hostname.toLowerCase();
  } catch {
    return undefined;
  }
}

/** Checks Host and Origin; returns a refusal message, or undefined when the request may go on. */
export function checkHostAndOrigin(
  request: IncomingMessage,
  allowedHosts: readonly string[],
  allowedOrigins: readonly string[],
): string | undefined {
  const host = hostnameOf(request.headers.host);
  if (host === undefined || !allowedHosts.includes(host)) {
    return `Invalid Host header: ${request.headers.host ?? "(none)"}`;
  }
  const origin = request.headers.origin;
  // Non-browser clients send no Origin; browsers always do, and that is what rebinding abuses.
  if (origin === undefined) return undefined;
  if (allowedOrigins.includes(origin)) return undefined;
  let originHost: string | undefined;
  try {
    originHost = new URL(origin).hostname.toLowerCase();
  } catch {
    originHost = undefined;
  }
  // A loopback page may call a loopback server; anything else must be listed explicitly.
  if (originHost !== undefined && isLoopbackHost(originHost) && isLoopbackHost(host))
    return undefined;
  return `Invalid Origin header: ${origin}`;
}

/** A configured token as the endpoint keeps it: its digest and its label (none for `token`). */
export interface TokenDigest {
  digest: Buffer;
  label: string | undefined;
}

/**
 * The configured token a request's bearer token is, or undefined when it is none of them. Every
 * digest is compared, whichever matches, so the time taken says nothing about which one did.
 */
export function matchBearerToken(
  request: IncomingMessage,
  tokens: readonly TokenDigest[],
): TokenDigest | undefined {
  const header = request.headers.authorization;
  const match = header === undefined ? null : /^Bearer\s+(\S+)\s*$/i.exec(header);
  const presented = sha256(match?.[1] ?? "");
  let found: TokenDigest | undefined;
  for (const entry of tokens) {
    // Both sides are 32-byte digests, so timingSafeEqual never sees different lengths.
    if (timingSafeEqual(presented, entry.digest) && found === undefined) found = entry;
  }
  return match === null ? undefined : found;
}

/** SHA-256 digest of a string. */
export function sha256(text: string): Buffer {
  return createHash("sha256").update(text, "utf8").digest();
}

/** Result of {@link readBody}. */
export type BodyRead = { ok: true; text: string } | { ok: false; tooLarge: boolean };

/**
 * Reads a request body up to `maxBytes`; stops reading as soon as the limit is passed (the rest
 * is left unread: the caller answers, drains a bounded amount and closes the connection, see
 * {@link refuseTooLarge}).
 */
export function readBody(request: IncomingMessage, maxBytes: number): Promise<BodyRead> {
  const declared = Number(request.headers["content-length"]);
  if (Number.isFinite(declared) && declared > maxBytes) {
    return Promise.resolve({ ok: false, tooLarge: true });
  }
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const finish = (result: BodyRead): void => {
      if (done) return;
      done = true;
      resolve(result);
    };
    request.on("data", (chunk: Buffer) => {
      if (done) return;
      size += chunk.length;
      if (size > maxBytes) {
        finish({ ok: false, tooLarge: true });
        request.pause();
        return;
      }
      chunks.push(chunk);
    });
    request.on("end", () => finish({ ok: true, text: Buffer.concat(chunks).toString("utf8") }));
    request.on("error", () => finish({ ok: false, tooLarge: false }));
    // A request that closes before its end arrived was abandoned mid-body.
    request.on("close", () => finish({ ok: false, tooLarge: false }));
  });
}

/** How much of a refused body is read and thrown away before its connection is closed. */
export interface DrainBounds {
  /** Most bytes discarded. Default 16 MiB. */
  bytes: number;
  /** Longest wait for the next chunk, in ms. Default 2000. */
  idleMs: number;
  /** Longest drain in all, in ms. Default 10 000. */
  totalMs: number;
}

const defaultDrain: DrainBounds = { bytes: 16 * 1024 * 1024, idleMs: 2000, totalMs: 10_000 };

/**
 * Answers a body over the limit with 413 and `Connection: close`, and reads and discards the rest
 * of the body, within `drain`, before ending the answer (which closes the connection). Closing a
 * socket with unread data resets it, and the reset can reach the client before it has read the
 * answer (it then sees "fetch failed", not the 413): so the answer's head and body go out at once
 * and the connection closes only once the body was read to its end, or, for an endless or huge
 * body, once the bounds are reached (as nginx's lingering close does).
 */
export function refuseTooLarge(
  request: IncomingMessage,
  response: ServerResponse,
  maxBytes: number,
  drain: DrainBounds = defaultDrain,
): void {
  const body = JSON.stringify({
    jsonrpc: "2.0",
    error: {
      code: -32000,
      message: `Payload Too Large: request body must not exceed ${maxBytes} bytes`,
    },
    id: null,
  });
  response.writeHead(413, {
    "Content-Type": "application/json",
    "Content-Length": Buffer.byteLength(body),
    Connection: "close",
  });
  if (request.complete) {
    response.end(body);
    return;
  }
  // The whole answer now; ending it (which closes the connection) waits for the drain.
  response.write(body);
  let discarded = 0;
  const close = (): void => {
    clearTimeout(idle);
    clearTimeout(total);
    request.off("data", onData);
    request.off("end", close);
    request.off("close", close);
    response.end();
  };
  let idle = setTimeout(close, drain.idleMs);
  const total = setTimeout(close, drain.totalMs);
  const onData = (chunk: Buffer): void => {
    discarded += chunk.length;
    clearTimeout(idle);
    if (discarded > drain.bytes) close();
    else idle = setTimeout(close, drain.idleMs);
  };
  request.on("data", onData);
  request.once("end", close);
  request.once("close", close);
  request.resume();
}
