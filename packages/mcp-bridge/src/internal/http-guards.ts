// Request checks that run before the MCP transport sees a request: Host and Origin against DNS
// rebinding, bearer tokens (one, or several with labels) compared in constant time, and a bounded body read.
import { createHash, timingSafeEqual } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { sendError } from "./send-error.ts";

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
 * is left unread: the caller answers and closes the connection, see {@link refuseTooLarge}).
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

/**
 * Answers a body over the limit with 413 and closes the connection once the answer is out,
 * without reading the rest: a client sending an endless chunked body is not read to its end.
 */
export function refuseTooLarge(
  request: IncomingMessage,
  response: ServerResponse,
  maxBytes: number,
): void {
  request.pause();
  response.setHeader("Connection", "close");
  response.once("finish", () => request.socket.destroy());
  sendError(
    response,
    413,
    -32000,
    `Payload Too Large: request body must not exceed ${maxBytes} bytes`,
  );
}
