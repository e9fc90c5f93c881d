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

/** Worker → main thread. */
export type WorkerMessage =
  | { type: "ready" }
  /** Freeing a finished run's runtime failed: replace this worker. */
  | { type: "poisoned" }
  | { type: "call"; id: number; seq: number; name: string; args: string }
  | { type: "log"; id: number; entry: ExecuteLogEntry }
  | { type: "progress"; id: number; update: ExecuteProgress }
  | { type: "done"; id: number; outcome: RunOutcome };
