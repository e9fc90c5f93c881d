import DEBUG_SYNC from "@jitl/quickjs-wasmfile-debug-sync";
import {
  newQuickJSWASMModuleFromVariant,
  type QuickJSContext,
  type QuickJSSyncVariant,
  TestQuickJSWASMModule,
} from "quickjs-emscripten-core";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { newRawStringFunction } from "./raw-string-function.ts";

let debug: TestQuickJSWASMModule;
beforeAll(async () => {
  const variant = DEBUG_SYNC as unknown as { default?: QuickJSSyncVariant } & QuickJSSyncVariant;
  debug = new TestQuickJSWASMModule(
    await newQuickJSWASMModuleFromVariant(variant.default ?? variant),
  );
});
afterEach(() => {
  for (const runtime of debug.runtimes) if (!runtime.alive) debug.runtimes.delete(runtime);
  debug.assertNoMemoryAllocated();
});

/** Evaluates `code` with `fn` installed as the global `host`; returns the dumped result. */
function withHost(fn: (text: string) => string, code: string, hide = false): unknown {
  const runtime = debug.newRuntime();
  const context = runtime.newContext();
  try {
    // Without the library internals it must fall back to an ordinary host function.
    const target = hide
      ? (Object.assign(Object.create(context), { cToHostCallbacks: undefined }) as QuickJSContext)
      : context;
    const handle = newRawStringFunction(target, "host", fn);
    context.setProp(context.global, "host", handle);
    handle.dispose();
    const result = context.unwrapResult(context.evalCode(code));
    try {
      return context.dump(result);
    } finally {
      result.dispose();
    }
  } finally {
    context.dispose();
    runtime.dispose();
  }
}

describe("newRawStringFunction", () => {
  for (const hide of [false, true]) {
    const path = hide ? "the fallback path" : "the raw path";
    it(`passes one string in and one out, on ${path}`, () => {
      const seen: string[] = [];
      const echo = (text: string): string => {
        seen.push(text);
        return `<${text}>`;
      };
      expect(withHost(echo, 'host("añ😀\\u0001x") + host(12) + host("")', hide)).toBe(
        "<añ😀\u0001x><12><>",
      );
      expect(seen).toEqual(["añ😀\u0001x", "12", ""]);
    });

    it(`turns a host exception into a catchable guest Error, on ${path}`, () => {
      const fail = (): string => {
        throw new Error("stopped");
      };
      expect(
        withHost(fail, 'try { host("x") } catch (e) { [e instanceof Error, e.message] }', hide),
      ).toEqual([true, "stopped"]);
    });
  }

  it("leaves other host functions on the generic path", () => {
    const runtime = debug.newRuntime();
    const context = runtime.newContext();
    try {
      const raw = newRawStringFunction(context, "raw", (text) => text.toUpperCase());
      const plain = context.newFunction("plain", (a, b) =>
        context.newNumber(context.getNumber(a) + context.getNumber(b)),
      );
      context.setProp(context.global, "raw", raw);
      context.setProp(context.global, "plain", plain);
      raw.dispose();
      plain.dispose();
      const result = context.unwrapResult(context.evalCode('[raw("a"), plain(1, 2), raw("b")]'));
      expect(context.dump(result)).toEqual(["A", 3, "B"]);
      result.dispose();
    } finally {
      context.dispose();
      runtime.dispose();
    }
  });
});
