// Messages between the main thread and a sandbox worker.

import type { ExecuteLogEntry, ExecuteProgress } from "../execute-options.ts";
import type { SandboxJob } from "./run-on-pool.ts";
import type { RunOutcome } from "./sandbox-types.ts";

/** Data a sandbox worker is started with. */
export interface SandboxWorkerData {
  control: SharedArrayBuffer;
  /** UTF-16 text of a small dispatch answer (see control-block.ts). */
  replyText: SharedArrayBuffer;
  replyPort: import("node:worker_threads").MessagePort;
  wasmPages: number;
}

/** Main thread → worker: run one script (a pool's {@link SandboxJob}, numbered). */
export interface RunMessage extends SandboxJob {
  type: "run";
  id: number;
}

/** Main thread → worker, on the reply port: an answer too large for the reply text buffer. */
export interface ReplyMessage {
  seq: number;
  /** JSON text `{"ok":true,"value":…}` or `{"ok":false,"error":{command,code,message}}`. */
  reply: string;
}

/**
 * Worker → main thread: one dispatch call of run `id`, packed in one string (see
 * {@link packCall}). A string crosses threads several times faster than an object is cloned.
 */
export type CallMessage = string;

/** One dispatch call, as {@link unpackCall} reads it. */
export interface DispatchCall {
  id: number;
  seq: number;
  name: string;
  args: string;
}

/**
 * `${id} ${seq} ${args}\u0001${name}`: the arguments' JSON text never holds a raw control
 * character, so the first U+0001 after the numbers ends it and the name may hold anything.
 */
export function packCall(id: number, seq: number, name: string, args: string): CallMessage {
  return `${id} ${seq} ${args}\u0001${name}`;
}

/** Reads a {@link packCall} string. */
export function unpackCall(message: CallMessage): DispatchCall {
  const idEnd = message.indexOf(" ");
  const seqEnd = message.indexOf(" ", idEnd + 1);
  const argsEnd = message.indexOf("\u0001", seqEnd + 1);
  return {
    id: Number(message.slice(0, idEnd)),
    seq: Number(message.slice(idEnd + 1, seqEnd)),
    args: message.slice(seqEnd + 1, argsEnd),
    name: message.slice(argsEnd + 1),
  };
}

/** Worker → main thread. */
export type WorkerMessage =
  | CallMessage
  | { type: "ready" }
  /** Freeing a finished run's runtime failed: replace this worker. */
  | { type: "poisoned" }
  | { type: "log"; id: number; entry: ExecuteLogEntry }
  | { type: "progress"; id: number; update: ExecuteProgress }
  | { type: "done"; id: number; outcome: RunOutcome };
