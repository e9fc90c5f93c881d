import { describe, expect, it } from "vitest";
import { settleWithin } from "./approval-host.ts";

describe("settleWithin", () => {
  it("gives the promise's value or error when it settles first", async () => {
    const signal = new AbortController().signal;
    await expect(settleWithin(Promise.resolve(7), signal, 60_000)).resolves.toBe(7);
    await expect(settleWithin(Promise.reject(new Error("no")), signal, 60_000)).rejects.toThrow(
      "no",
    );
  });

  it("gives up when the signal aborts or the bound passes, leaving the promise alone", async () => {
    const never = new Promise<number>(() => {});
    const stop = new AbortController();
    const stopped = settleWithin(never, stop.signal, 60_000);
    stop.abort();
    await expect(stopped).rejects.toThrow("the script stopped");
    await expect(settleWithin(never, AbortSignal.abort(), 60_000)).rejects.toThrow("stopped");
    await expect(settleWithin(never, new AbortController().signal, 1)).rejects.toThrow(
      "no answer from Blender within 1 ms",
    );
  });
});
