import RELEASE_SYNC from "@jitl/quickjs-wasmfile-release-sync";
import {
  newQuickJSWASMModuleFromVariant,
  type QuickJSContext,
  type QuickJSSyncVariant,
} from "quickjs-emscripten-core";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { GUEST_SLICE_SOURCE, MAX_GUEST_TEXT_CHARS, readGuestText } from "./guest-text.ts";

let ctx: QuickJSContext;
beforeEach(async () => {
  const variant = ((RELEASE_SYNC as { default?: QuickJSSyncVariant }).default ??
    RELEASE_SYNC) as QuickJSSyncVariant;
  ctx = (await newQuickJSWASMModuleFromVariant(variant)).newContext();
});
afterEach(() => ctx.dispose());

/** Reads the guest string `source` evaluates to, recording every string copied out. */
function read(source: string, maxChars?: number): { text: string; copied: number[] } {
  const slice = ctx.unwrapResult(ctx.evalCode(GUEST_SLICE_SOURCE));
  const value = ctx.unwrapResult(ctx.evalCode(source));
  const copied: number[] = [];
  const getString = ctx.getString.bind(ctx);
  ctx.getString = (handle) => {
    const text = getString(handle);
    copied.push(text.length);
    return text;
  };
  try {
    return { text: readGuestText(ctx, value, slice, maxChars), copied };
  } finally {
    value.dispose();
    slice.dispose();
  }
}

describe("readGuestText", () => {
  it("copies a short string whole", () => {
    expect(read('"héllo"')).toEqual({ text: "héllo", copied: [5] });
  });

  it("cuts a long string in the guest: only the kept part is ever copied out", () => {
    const { text, copied } = read('"ab".repeat(3_000_000)');
    expect(text).toBe(`${"ab".repeat(MAX_GUEST_TEXT_CHARS / 2)}… (6000000 characters)`);
    expect(copied).toEqual([MAX_GUEST_TEXT_CHARS]);
  });

  it("uses the built-in slice even when the script replaced it", () => {
    const slice = ctx.unwrapResult(ctx.evalCode(GUEST_SLICE_SOURCE));
    ctx.unwrapResult(ctx.evalCode('String.prototype.slice = () => "hijacked"')).dispose();
    const value = ctx.unwrapResult(ctx.evalCode('"xyz".repeat(10)'));
    expect(readGuestText(ctx, value, slice, 4)).toBe("xyzx… (30 characters)");
    value.dispose();
    slice.dispose();
  });
});
