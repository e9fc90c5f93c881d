// The main thread's handle on one sandbox worker: starts it, sends it one script at a time,
// answers its dispatch calls, and wakes it on cancel.
import { MessageChannel, type Worker } from "node:worker_threads";
import type { ExecuteLogEntry, ExecuteProgress } from "../execute-options.ts";
import { maxStackBytes } from "../executor-limits.ts";
import {
  ANSWER_SLOT,
  CANCEL_SLOT,
  newControlBlock,
  newReplyText,
  PENDING_SLOT,
  REPLY_LENGTH_SLOT,
  WAKE_SLOT,
  writeReplyText,
} from "./control-block.ts";
import { workerStackSizeMb } from "./native-stack.ts";
import type { RunOutcome } from "./sandbox-types.ts";
import { spawnSandboxWorker } from "./spawn-sandbox-worker.ts";
import {
  type CallMessage,
  type ReplyMessage,
  type RunMessage,
  unpackCall,
  type WorkerMessage,
} from "./worker-protocol.ts";

/** Callbacks for one run. */
export interface RunHooks {
  /** Runs a host command; gives reply JSON text at once or as a promise that never rejects. */
  onCall(name: string, argsJson: string): string | Promise<string>;
  onLog?(entry: ExecuteLogEntry): void;
  onProgress?(update: ExecuteProgress): void;
}

interface ActiveRun {
  id: number;
  hooks: RunHooks;
  resolve(outcome: RunOutcome): void;
  reject(error: Error): void;
}

let nextRunId = 1;

/** One worker thread with its control block and reply port. */
export class PooledWorker {
  readonly ready: Promise<void>;
  #worker: Worker;
  #control = newControlBlock();
  #replyText = newReplyText();
  #replyPort: MessageChannel["port1"];
  #active: ActiveRun | null = null;
  #dead: Error | null = null;

  constructor(wasmPages: number) {
    const channel = new MessageChannel();
    this.#replyPort = channel.port1;
    this.#worker = spawnSandboxWorker({
      workerData: {
        control: this.#control.buffer,
        replyText: this.#replyText.buffer,
        replyPort: channel.port2,
        wasmPages,
      },
      transferList: [channel.port2],
      stdout: false,
      // The worker's own JS makes short-lived garbage only (quickjs-emscripten's call wrappers);
      // a small young generation keeps its resident size flat over thousands of runs.
      // The native stack is sized for the largest QuickJS stack limit, so QuickJS's own limit
      // always trips before V8's (see native-stack.ts); untouched stack pages cost no memory.
      resourceLimits: {
        maxYoungGenerationSizeMb: 4,
        stackSizeMb: workerStackSizeMb(maxStackBytes),
      },
      stderr: false,
    });
    this.ready = new Promise<void>((resolve, reject) => {
      const onReady = (message: WorkerMessage): void => {
        if (typeof message === "string" || message.type !== "ready") return;
        this.#worker.off("message", onReady);
        resolve();
      };
      this.#worker.on("message", onReady);
      this.#worker.once("error", reject);
      this.#worker.once("exit", (code) => reject(new Error(`sandbox worker exited (${code})`)));
    });
    // Settled failures are reported through `run`; this keeps an unobserved one quiet.
    this.ready.catch(() => {});
    this.#worker.on("message", (message: WorkerMessage) => this.#onMessage(message));
    this.#worker.on("error", (error) => this.#die(error));
    this.#worker.on("exit", (code) => this.#die(new Error(`sandbox worker exited (${code})`)));
  }

  /** True once the thread crashed or was terminated. */
  get dead(): boolean {
    return this.#dead !== null;
  }

  /** Runs one script; rejects only if the worker thread dies. */
  run(message: Omit<RunMessage, "type" | "id">, hooks: RunHooks): Promise<RunOutcome> {
    if (this.#dead !== null) return Promise.reject(this.#dead);
    const id = nextRunId++;
    Atomics.store(this.#control, CANCEL_SLOT, 0);
    this.#worker.ref();
    return new Promise<RunOutcome>((resolve, reject) => {
      this.#active = { id, hooks, resolve, reject };
      this.#worker.postMessage({ ...message, type: "run", id } satisfies RunMessage);
    });
  }

  /** Raises the cancel flag and wakes the worker if it is waiting on a dispatch answer. */
  cancel(): void {
    Atomics.store(this.#control, CANCEL_SLOT, 1);
    Atomics.add(this.#control, WAKE_SLOT, 1);
    Atomics.notify(this.#control, WAKE_SLOT);
  }

  /** Lets the process exit while this worker idles. */
  unref(): void {
    this.#worker.unref();
  }

  /** Stops the thread at once, wherever it is. */
  async terminate(): Promise<void> {
    this.#die(new Error("sandbox worker terminated"));
    this.#replyPort.close();
    await this.#worker.terminate();
  }

  #die(error: Error): void {
    if (this.#dead === null) this.#dead = error;
    const active = this.#active;
    this.#active = null;
    active?.reject(error);
  }

  #onCall(message: CallMessage): void {
    const active = this.#active;
    const { id, seq, name, args } = unpackCall(message);
    if (active === null || id !== active.id) return;
    const reply = active.hooks.onCall(name, args);
    if (typeof reply === "string") this.#answer(active, seq, reply);
    else {
      Atomics.store(this.#control, PENDING_SLOT, seq);
      void reply.then((text) => this.#answer(active, seq, text));
    }
  }

  #answer(active: ActiveRun, seq: number, reply: string): void {
    // A late answer for a run that already ended is dropped, never delivered to the next.
    if (this.#active !== active) return;
    // Small answers go through shared memory; only a large one needs the reply port.
    if (writeReplyText(this.#replyText, reply)) {
      Atomics.store(this.#control, REPLY_LENGTH_SLOT, reply.length);
    } else {
      this.#replyPort.postMessage({ seq, reply } satisfies ReplyMessage);
      Atomics.store(this.#control, REPLY_LENGTH_SLOT, -1);
    }
    Atomics.store(this.#control, ANSWER_SLOT, seq);
    Atomics.add(this.#control, WAKE_SLOT, 1);
    Atomics.notify(this.#control, WAKE_SLOT);
  }

  #onMessage(message: WorkerMessage): void {
    if (typeof message === "string") {
      this.#onCall(message);
      return;
    }
    if (message.type === "poisoned") {
      this.#die(new Error("sandbox worker's QuickJS module is suspect"));
      void this.#worker.terminate();
      return;
    }
    const active = this.#active;
    if (active === null || message.type === "ready" || message.id !== active.id) return;
    switch (message.type) {
      case "log":
        active.hooks.onLog?.(message.entry);
        return;
      case "progress":
        active.hooks.onProgress?.(message.update);
        return;
      case "done":
        this.#active = null;
        active.resolve(message.outcome);
        return;
    }
  }
}
