/**
 * The frames of protocol 1. Client to host: `hello` (first, with the token), `call`, `cancel`,
 * `ping`. Host to client: `welcome`, `result`, `error`, `pong`, and `bye` before the host drops
 * a connection that broke the protocol or when it stops.
 */
import type { LinkWelcome } from "../link-welcome.ts";
import { type Frame, FrameViolation, frameFromJson } from "./frame-codec.ts";

export const protocolVersion = 1;

/** An `error` frame's body. */
export interface RemoteErrorBody {
  readonly code: string;
  readonly message: string;
  readonly type?: string | undefined;
  readonly data?: unknown;
}

/** A validated frame from the host. */
export type ServerFrame =
  | { readonly type: "welcome"; readonly welcome: LinkWelcome }
  | { readonly type: "result"; readonly id: unknown; readonly result: unknown }
  | {
      readonly type: "error";
      readonly id: unknown;
      readonly error: RemoteErrorBody;
      readonly started: boolean;
    }
  | {
      readonly type: "pong";
      readonly id: unknown;
      readonly busy: boolean;
      readonly pumpAgeMs: number | undefined;
    }
  | { readonly type: "bye"; readonly code: string; readonly message: string };

const bad = (message: string): never => {
  throw new FrameViolation("BAD_FRAME", message);
};
const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** Checks a decoded frame against the protocol. @throws {FrameViolation} (`BAD_FRAME`). */
export function parseServerFrame(frame: Frame): ServerFrame {
  switch (frame.type) {
    case "welcome": {
      const { protocol, loop, pid, maxFrameBytes } = frame;
      if (typeof protocol !== "number" || typeof pid !== "number") bad("Malformed welcome");
      if (loop !== "blocking" && loop !== "pump") bad("Malformed welcome: unknown loop");
      if (typeof maxFrameBytes !== "number" || maxFrameBytes < 1) bad("Malformed welcome");
      return {
        type: "welcome",
        welcome: { protocol, loop, pid, maxFrameBytes } as LinkWelcome,
      };
    }
    case "result":
      if (!("id" in frame) || !("result" in frame)) bad("Malformed result frame");
      return { type: "result", id: frame["id"], result: frame["result"] };
    case "error": {
      const error = frame["error"];
      if (!isRecord(error) || typeof error["code"] !== "string") bad("Malformed error frame");
      const body = error as Record<string, unknown>;
      return {
        type: "error",
        id: frame["id"],
        started: frame["started"] !== false,
        error: {
          code: body["code"] as string,
          message: typeof body["message"] === "string" ? body["message"] : "",
          type: typeof body["type"] === "string" ? body["type"] : undefined,
          data: body["data"],
        },
      };
    }
    case "pong": {
      const age = frame["pumpAgeMs"];
      return {
        type: "pong",
        id: frame["id"],
        busy: frame["busy"] === true,
        pumpAgeMs: typeof age === "number" ? age : undefined,
      };
    }
    case "bye":
      return {
        type: "bye",
        code: typeof frame["code"] === "string" ? frame["code"] : "SHUTDOWN",
        message: typeof frame["message"] === "string" ? frame["message"] : "",
      };
    default:
      return bad(`Unexpected frame type ${JSON.stringify(frame.type)}`);
  }
}

/** The first frame of a connection. */
export function helloFrame(token: string): Buffer {
  return frameFromJson(JSON.stringify({ type: "hello", protocol: protocolVersion, token }));
}

/** A call; `paramsJson` is the params object already serialised. */
export function callFrame(id: number, method: string, paramsJson: string): Buffer {
  return frameFromJson(
    `{"type":"call","id":${id},"method":${JSON.stringify(method)},"params":${paramsJson}}`,
  );
}

/** Asks the host to cancel call `id` cooperatively. */
export function cancelFrame(id: number): Buffer {
  return frameFromJson(`{"type":"cancel","id":${id}}`);
}

/** A heartbeat. */
export function pingFrame(id: number): Buffer {
  return frameFromJson(`{"type":"ping","id":${id}}`);
}
