// A bare socket that speaks (or breaks) the wire format, to test the Python side directly.
import { connect, type Socket } from "node:net";
import type { LinkEndpoint } from "../link-endpoint.ts";

/** Encodes one frame: 4-byte big-endian length + the UTF-8 JSON (or raw) body. */
export function frame(body: object | string | Buffer): Buffer {
  const bytes = Buffer.isBuffer(body)
    ? body
    : Buffer.from(typeof body === "string" ? body : JSON.stringify(body), "utf8");
  const header = Buffer.alloc(4);
  header.writeUInt32BE(bytes.length);
  return Buffer.concat([header, bytes]);
}

/** Splits received bytes into decoded frames (no validation: tests inspect them). */
export function frames(bytes: Buffer): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  let offset = 0;
  while (bytes.length - offset >= 4) {
    const length = bytes.readUInt32BE(offset);
    if (bytes.length - offset - 4 < length) break;
    out.push(JSON.parse(bytes.subarray(offset + 4, offset + 4 + length).toString("utf8")));
    offset += 4 + length;
  }
  return out;
}

/** A connected raw socket that records everything it receives. */
export interface RawPeer {
  readonly socket: Socket;
  received(): Buffer;
  /** Resolves with everything received once the host closes the connection (bounded). */
  closed(timeoutMs?: number): Promise<Buffer>;
  /** Resolves once `count` frames have arrived (bounded). */
  frames(count: number, timeoutMs?: number): Promise<Record<string, unknown>[]>;
}

/** Connects a raw socket to `endpoint`. */
export async function rawConnect(endpoint: LinkEndpoint): Promise<RawPeer> {
  const socket =
    endpoint.kind === "unix"
      ? connect({ path: endpoint.path })
      : connect({ host: endpoint.host, port: endpoint.port });
  const chunks: Buffer[] = [];
  let ended = false;
  const listeners = new Set<() => void>();
  const notify = (): void => {
    for (const listener of listeners) listener();
  };
  socket.on("data", (chunk: Buffer) => {
    chunks.push(chunk);
    notify();
  });
  socket.on("error", () => undefined);
  socket.on("close", () => {
    ended = true;
    notify();
  });
  await new Promise<void>((resolve, reject) => {
    socket.once("connect", resolve);
    socket.once("error", reject);
  });
  const waitFor = (done: () => boolean, what: string, timeoutMs: number): Promise<void> =>
    new Promise((resolve, reject) => {
      const check = (): void => {
        if (!done()) return;
        clearTimeout(timer);
        listeners.delete(check);
        resolve();
      };
      const timer = setTimeout(() => {
        listeners.delete(check);
        reject(new Error(`raw peer: timed out waiting for ${what}`));
      }, timeoutMs);
      listeners.add(check);
      check();
    });
  return {
    socket,
    received: () => Buffer.concat(chunks),
    async closed(timeoutMs = 15_000) {
      await waitFor(() => ended, "the host to close", timeoutMs);
      return Buffer.concat(chunks);
    },
    async frames(count, timeoutMs = 15_000) {
      await waitFor(
        () => frames(Buffer.concat(chunks)).length >= count || ended,
        `${count} frames`,
        timeoutMs,
      );
      return frames(Buffer.concat(chunks));
    },
  };
}
