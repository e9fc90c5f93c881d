// Entry point of a sandbox worker thread: one QuickJS module with fixed-size memory, one script
// at a time. `dispatch` blocks this thread in Atomics.wait until the main thread answers, the
// script is cancelled, or the deadline passes; a command on the run's dispatch lane blocks in the
// lane's own call instead, with the same stop checks.
import { parentPort, receiveMessageOnPort, workerData } from "node:worker_threads";
import * as releaseSync from "@jitl/quickjs-wasmfile-release-sync";
import {
  newQuickJSWASMModuleFromVariant,
  newVariant,
  type QuickJSSyncVariant,
} from "quickjs-emscripten-core";
import type {
  DispatchLane,
  DispatchLaneConnection,
  DispatchLaneReply,
  OpenDispatchLane,
} from "../dispatch-lane.ts";
import type { ExecuteProgress } from "../execute-options.ts";
import {
  ANSWER_SLOT,
  CANCEL_SLOT,
  PENDING_SLOT,
  REPLY_LENGTH_SLOT,
  readReplyText,
  WAKE_SLOT,
} from "./control-block.ts";
import { errorReply, valueReply } from "./reply-text.ts";
import {
  type PreparedSandbox,
  prepareSandbox,
  runPrepared,
  type StopReason,
} from "./run-in-sandbox.ts";
import { shiftedDeadline } from "./script-clock.ts";
import {
  packCall,
  type ReplyMessage,
  type RunMessage,
  type SandboxWorkerData,
  type WorkerMessage,
} from "./worker-protocol.ts";

const progressIntervalMs = 50;
/** Bound on opening a lane (connect and handshake); a lane that cannot open is not used. */
const laneOpenMs = 2000;
/** Upper bound of one Atomics.wait slice; every wake re-checks cancel and the deadline. */
const waitSliceMs = 50;
/** How long a dispatch watches for its answer before it sleeps in Atomics.wait. */
const spinMs = 0.05;

const data = workerData as SandboxWorkerData;
const port = parentPort;
if (port === null) throw new Error("sandbox-worker must run in a worker thread");
const control = new Int32Array(data.control);
const replyText = new Uint16Array(data.replyText);
const replyPort = data.replyPort;
// Fixed-size memory (initial === maximum): growth would detach heap views inside
// executePendingJobs (quickjs-emscripten #269) and it caps this worker's WASM RAM.
const wasmMemory = newWasmMemory(data.wasmPages);
const module = await newQuickJSWASMModuleFromVariant(newVariant(syncVariant(), { wasmMemory }));
let callSeq = 0;
// Commands whose host went asynchronous (see PENDING_SLOT): their next calls skip the watch.
const slowCommands = new Set<string>();
// The next run's runtime and context, made while idle (runtime creation is most of a run's cost).
let prepared: PreparedSandbox | undefined;
let preparing: NodeJS.Immediate | undefined;
// Set when disposing a runtime failed: the module is suspect and this worker must be replaced.
let broken = false;

const post = (message: WorkerMessage): void => port.postMessage(message);

port.on("message", (message: RunMessage) => {
  if (message.type !== "run") return;
  if (message.lane === undefined) run(message, undefined);
  else void laneFor(message.lane, message.deadline).then((lane) => run(message, lane));
});
prepareNext(64 * 1024);
post({ type: "ready" });

function prepareNext(maxLogChars: number): void {
  try {
    prepared = prepareSandbox(module, maxLogChars);
  } catch {
    // Left for the run to report: it prepares again and fails there if QuickJS is broken.
    prepared = undefined;
  }
}

function takePrepared(maxLogChars: number): PreparedSandbox | Error {
  if (preparing !== undefined) clearImmediate(preparing);
  preparing = undefined;
  let sandbox = prepared;
  prepared = undefined;
  if (sandbox !== undefined && sandbox.maxLogChars !== maxLogChars) {
    try {
      sandbox.dispose();
    } catch {
      broken = true;
      return new Error("the worker's QuickJS module is suspect");
    }
    sandbox = undefined;
  }
  if (sandbox !== undefined) return sandbox;
  try {
    return prepareSandbox(module, maxLogChars);
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error));
  }
}

/** A lane open in this thread, kept for later runs against the same host. */
interface OpenLane {
  readonly key: string;
  readonly module: string;
  readonly connection: DispatchLaneConnection;
}

/** A run's lane: the open connection, the commands it carries, and its host's gone flag. */
interface RunLane {
  readonly connection: DispatchLaneConnection;
  readonly commands: ReadonlySet<string>;
  readonly closed: Int32Array | undefined;
}

/** Whether the adapter has said the lane's host is no longer its host. */
function hostGone(closed: Int32Array | undefined): boolean {
  return closed !== undefined && Atomics.load(closed, 0) !== 0;
}

let openLane: OpenLane | undefined;

/** The open lane for `lane`'s host, opening it first if needed; undefined when it cannot open. */
async function laneFor(lane: DispatchLane, deadline: number): Promise<RunLane | undefined> {
  const commands = new Set(lane.commands);
  const closed = lane.closed;
  if (hostGone(closed)) {
    closeLane();
    return undefined;
  }
  if (openLane?.key === lane.key && openLane.module === lane.module) {
    return { connection: openLane.connection, commands, closed };
  }
  closeLane();
  try {
    const module = (await import(lane.module)) as { openDispatchLane?: OpenDispatchLane };
    if (typeof module.openDispatchLane !== "function") return undefined;
    const bound = Math.max(1, Math.min(laneOpenMs, deadline - Date.now()));
    const connection = await module.openDispatchLane(lane.data, {
      signal: AbortSignal.timeout(bound),
    });
    openLane = { key: lane.key, module: lane.module, connection };
    return { connection, commands, closed };
  } catch {
    // Scripts then run without the lane: every call goes through the main thread.
    return undefined;
  }
}

function closeLane(): void {
  try {
    openLane?.connection.close();
  } catch {
    // Nothing more to release.
  }
  openLane = undefined;
}

function run(message: RunMessage, startLane: RunLane | undefined): void {
  let lane = startLane;
  const { id } = message;
  // The deadline moves while a person is asked to approve a command (the main thread shifts it).
  const deadlineNow = (): number => shiftedDeadline(message.deadline, message.deadlineShift);
  const checkStop = (): StopReason | null => {
    if (Atomics.load(control, CANCEL_SLOT) !== 0) return "cancelled";
    if (Date.now() >= deadlineNow()) return "timeout";
    return null;
  };
  const laneWait = {
    get deadline() {
      return deadlineNow();
    },
    shouldStop: () => checkStop() !== null,
  };
  let laneCallOpen = false;
  // One call on the run's lane: the reply text, null to stop the script, or undefined to make
  // the call through the main thread instead (the lane declined it, or broke and is dropped).
  const laneDispatch = (
    runLane: RunLane,
    name: string,
    args: string,
  ): string | null | undefined => {
    let reply: DispatchLaneReply;
    try {
      // A host the adapter no longer has may still answer on this connection (its process
      // outlived the one the adapter watched): what it says is not the host's any more.
      reply = hostGone(runLane.closed)
        ? { status: "unavailable" }
        : runLane.connection.call(name, args, laneWait);
    } catch {
      reply = { status: "unavailable" };
    }
    switch (reply.status) {
      case "stopped":
        // The host may still be running the call the script stopped waiting for.
        laneCallOpen = true;
        return null;
      case "value":
        // A cancel that arrived with the answer wins: the script must not go on.
        return checkStop() === null ? valueReply(name, reply.value) : null;
      case "error": {
        const { code, completion, data: detail } = reply;
        const text = errorReply(name, code, reply.message, { completion, data: detail });
        return checkStop() === null ? text : null;
      }
      case "declined":
        return undefined;
      default:
        // Broken: this call and the rest go through the main thread, which reports what
        // happened to the host.
        if (openLane?.connection === runLane.connection) closeLane();
        lane = undefined;
        return undefined;
    }
  };
  let lastProgressAt = 0;
  let pendingProgress: ExecuteProgress | undefined;

  const request = { code: message.code, limits: message.limits };
  const sandbox = broken
    ? new Error("the worker's QuickJS module is suspect")
    : takePrepared(message.limits.maxLogChars);
  if (sandbox instanceof Error) {
    post({
      type: "done",
      id,
      outcome: {
        status: "error",
        errorCode: "INTERNAL",
        error: `The sandbox failed to start: ${sandbox.message}`,
        logs: [],
        dispatchCalls: 0,
        poisoned: true,
      },
    });
    return;
  }
  const outcome = runPrepared(
    sandbox,
    message.entry === undefined ? request : { ...request, entry: message.entry },
    {
      checkStop,
      dispatch(name, args) {
        // While another script's end is under way the call goes through the main thread, which
        // holds it until that end has finished.
        const gate = message.laneGate;
        if (lane?.commands.has(name) && (gate === undefined || Atomics.load(gate, 0) === 0)) {
          const reply = laneDispatch(lane, name, args);
          if (reply !== undefined) return reply;
        }
        const seq = ++callSeq;
        post(packCall(id, seq, name, args));
        // A fast host answers within tens of µs: watching for it briefly saves the sleep and
        // wake-up of Atomics.wait. A host that went asynchronous says so, and the watch ends at
        // once: spinning then only takes a core from the host on a small machine. Bounded, and
        // cancel is still seen by the loop below.
        const spinUntil = slowCommands.has(name) ? 0 : performance.now() + spinMs;
        while (
          Atomics.load(control, ANSWER_SLOT) !== seq &&
          Atomics.load(control, PENDING_SLOT) !== seq &&
          performance.now() < spinUntil
        ) {}
        for (;;) {
          const wake = Atomics.load(control, WAKE_SLOT);
          if (Atomics.load(control, ANSWER_SLOT) === seq) break;
          if (checkStop() !== null) return null;
          const slice = Math.max(1, Math.min(deadlineNow() - Date.now(), waitSliceMs));
          Atomics.wait(control, WAKE_SLOT, wake, slice);
        }
        if (Atomics.load(control, PENDING_SLOT) === seq) slowCommands.add(name);
        // The main thread writes the answer (or posts it) before it stores ANSWER_SLOT.
        const length = Atomics.load(control, REPLY_LENGTH_SLOT);
        if (length >= 0) {
          const reply = readReply(length);
          // A cancel that arrived with the answer wins: the script must not go on.
          return checkStop() === null ? reply : null;
        }
        for (let attempt = 0; attempt < 100; attempt++) {
          const received = receiveMessageOnPort(replyPort);
          if (received === undefined) {
            Atomics.wait(control, WAKE_SLOT, Atomics.load(control, WAKE_SLOT), 1);
            continue;
          }
          const reply = received.message as ReplyMessage;
          // A cancel that arrived with the answer wins: the script must not go on.
          if (reply.seq === seq) return checkStop() === null ? reply.reply : null;
        }
        throw new Error("The dispatch reply was lost");
      },
      log(entry) {
        if (message.streamLogs) post({ type: "log", id, entry });
      },
      progress(update) {
        if (!message.streamProgress) return;
        const now = Date.now();
        if (now - lastProgressAt >= progressIntervalMs) {
          lastProgressAt = now;
          pendingProgress = undefined;
          post({ type: "progress", id, update });
        } else {
          pendingProgress = update;
        }
      },
    },
    { deferDispose: true },
  );
  if (pendingProgress !== undefined) post({ type: "progress", id, update: pendingProgress });
  if (laneCallOpen && outcome.status === "error") outcome.hostCallOpen = true;
  post({ type: "done", id, outcome });
  // Disposed after the result went out: freeing the runtime is off the caller's critical path.
  try {
    sandbox.dispose();
  } catch {
    broken = true;
    post({ type: "poisoned" });
    return;
  }
  if (!outcome.poisoned) {
    const maxLogChars = message.limits.maxLogChars;
    preparing = setImmediate(() => {
      preparing = undefined;
      prepareNext(maxLogChars);
    });
  }
}

/** Reused while the replies repeat (see {@link readReply}); at most {@link reuseReplyUnits}. */
let lastReply = "";
const reuseReplyUnits = 64;

/**
 * The reply text of `length` units in the shared buffer. A script mostly gets the same short
 * answer again (a command's null above all): comparing it with the last one costs less than
 * making the string anew.
 */
function readReply(length: number): string {
  if (length === lastReply.length) {
    // From the end: replies differ in their value, which ends them.
    let unit = length - 1;
    while (unit >= 0 && replyText[unit] === lastReply.charCodeAt(unit)) unit--;
    if (unit < 0) return lastReply;
  }
  const reply = readReplyText(replyText, length);
  if (length <= reuseReplyUnits) lastReply = reply;
  return reply;
}

/** The variant module's default export (its typings describe the CommonJS shape). */
function syncVariant(): QuickJSSyncVariant {
  const namespace = releaseSync as unknown as { default?: QuickJSSyncVariant };
  return namespace.default ?? (releaseSync as unknown as QuickJSSyncVariant);
}

type WasmMemory = Parameters<typeof newVariant>[1]["wasmMemory"];

/** `lib: ES2023` has no WebAssembly value; Node has it at run time. */
function newWasmMemory(pages: number): WasmMemory {
  const wasm = (
    globalThis as unknown as {
      WebAssembly: { Memory: new (descriptor: { initial: number; maximum: number }) => WasmMemory };
    }
  ).WebAssembly;
  return new wasm.Memory({ initial: pages, maximum: pages });
}
