import { describe, expect, it } from "vitest";
import { CallNotifier, type SendNotification } from "./call-notifier.ts";

function recorder(): {
  send: SendNotification;
  sent: { method: string; params: Record<string, unknown> }[];
} {
  const sent: { method: string; params: Record<string, unknown> }[] = [];
  return { sent, send: async (notification) => void sent.push(notification) };
}

const base = { logger: "maya", maxLogNotifications: 3 } as const;

describe("CallNotifier", () => {
  it("sends the first progress at once, holds back a burst, and flushes only the latest", () => {
    const { send, sent } = recorder();
    const notifier = new CallNotifier({
      ...base,
      send,
      progressToken: "t",
      logLevel: () => undefined,
      intervalMs: 60_000,
    });
    for (let index = 1; index <= 100; index++) notifier.onProgress({ progress: index, total: 100 });
    expect(sent.map((entry) => entry.params["progress"])).toEqual([1]);
    notifier.flush();
    expect(sent.map((entry) => entry.params["progress"])).toEqual([1, 100]);
    expect(sent[1]).toEqual({
      method: "notifications/progress",
      params: { progressToken: "t", progress: 100, total: 100 },
    });
  });

  it("waits in flush until every notification was handed on, but not for one that never is", async () => {
    const order: string[] = [];
    let release: () => void = () => {};
    const notifier = new CallNotifier({
      ...base,
      send: (notification) =>
        new Promise<void>((resolve) => {
          release = () => {
            order.push(`sent ${String(notification.params["progress"])}`);
            resolve();
          };
        }),
      progressToken: "t",
      logLevel: () => undefined,
      intervalMs: 60_000,
    });
    notifier.onProgress({ progress: 1 });
    const flushed = notifier.flush().then(() => order.push("flushed"));
    setTimeout(() => release(), 20);
    await flushed;
    expect(order).toEqual(["sent 1", "flushed"]);

    const stuck = new CallNotifier({
      ...base,
      send: () => new Promise<void>(() => {}),
      progressToken: "t",
      logLevel: () => undefined,
      intervalMs: 0,
    });
    stuck.onProgress({ progress: 1 });
    await stuck.flush(50);
  });

  it("drops values that do not increase, and NaN", () => {
    const { send, sent } = recorder();
    const notifier = new CallNotifier({
      ...base,
      send,
      progressToken: 7,
      logLevel: () => undefined,
      intervalMs: 0,
    });
    for (const value of [1, 1, 0.5, Number.NaN, 2, 2, 3]) notifier.onProgress({ progress: value });
    notifier.flush();
    expect(sent.map((entry) => entry.params["progress"])).toEqual([1, 2, 3]);
  });

  it("sends no progress without a progress token", () => {
    const { send, sent } = recorder();
    const notifier = new CallNotifier({
      ...base,
      send,
      progressToken: undefined,
      logLevel: () => "debug",
      intervalMs: 0,
    });
    notifier.onProgress({ progress: 1 });
    notifier.flush();
    expect(sent).toEqual([]);
  });

  it("streams logs only at or above the client's level, and caps them per call", () => {
    const { send, sent } = recorder();
    let level: "info" | "error" | undefined;
    const notifier = new CallNotifier({
      ...base,
      send,
      progressToken: undefined,
      logLevel: () => level,
      intervalMs: 0,
    });
    notifier.onLog({ level: "error", message: "before any level" });
    level = "error";
    notifier.onLog({ level: "warn", message: "below" });
    notifier.onLog({ level: "error", message: "one" });
    level = "info";
    for (const message of ["two", "three", "four"]) notifier.onLog({ level: "log", message });
    expect(sent.map((entry) => entry.params["data"])).toEqual(["one", "two", "three"]);
    expect(sent[0]).toEqual({
      method: "notifications/message",
      params: { level: "error", logger: "maya", data: "one" },
    });
  });
});
