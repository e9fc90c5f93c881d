// Runs every deep-recursion script with the debug build in a worker thread whose native stack is
// sized as the sandbox pool sizes its workers, and reports each outcome and any leak.

import { parentPort, workerData } from "node:worker_threads";
import DEBUG_SYNC from "@jitl/quickjs-wasmfile-debug-sync";
import {
  newQuickJSWASMModuleFromVariant,
  type QuickJSSyncVariant,
  TestQuickJSWASMModule,
} from "quickjs-emscripten-core";
import { runInSandbox } from "../run-in-sandbox.ts";
import { deepRecursionScripts } from "./deep-recursion-scripts.ts";

const variant = ((DEBUG_SYNC as { default?: QuickJSSyncVariant }).default ??
  DEBUG_SYNC) as QuickJSSyncVariant;
const debug = new TestQuickJSWASMModule(await newQuickJSWASMModuleFromVariant(variant));
const { stackBytes } = workerData as { stackBytes: number };
const results: Array<{ name: string; outcome: unknown; leak: string | null }> = [];
for (const [name, code] of deepRecursionScripts) {
  const outcome = runInSandbox(
    debug,
    {
      code,
      limits: {
        memoryBytes: 32 * 1024 * 1024,
        stackBytes,
        maxOutputChars: 1000,
        maxDispatchCalls: 1,
        maxLogEntries: 1,
        maxLogChars: 100,
        maxArgsChars: 1_000_000,
        maxArgsDepth: 64,
      },
    },
    { checkStop: () => null, dispatch: () => null },
  );
  let leak: string | null = null;
  for (const runtime of debug.runtimes) if (!runtime.alive) debug.runtimes.delete(runtime);
  try {
    debug.assertNoMemoryAllocated();
  } catch (error) {
    leak = String(error);
  }
  results.push({ name, outcome, leak });
}
parentPort?.postMessage(results);
