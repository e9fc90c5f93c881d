import { EventEmitter } from "node:events";
import { describe, expect, it } from "vitest";
import { CancelledStreams, cancelledIds } from "./cancelled-streams.ts";

const cancel = (requestId: unknown) => ({
  jsonrpc: "2.0",
  method: "notifications/cancelled",
  params: { requestId },
});

/** Records which request streams were closed. */
function recorder(): {
  transport: Parameters<CancelledStreams["endCancelled"]>[0];
  closed: unknown[];
} {
  const closed: unknown[] = [];
  const transport = {
    closeSSEStream: (id: unknown) => closed.push(id),
  } as unknown as Parameters<CancelledStreams["endCancelled"]>[0];
  return { transport, closed };
}

describe("CancelledStreams", () => {
  it("ends the stream of a lone request once it is cancelled, and only once", () => {
    const streams = new CancelledStreams();
    const { transport, closed } = recorder();
    streams.watch(new EventEmitter(), [7]);
    streams.endCancelled(transport, { jsonrpc: "2.0", method: "notifications/initialized" });
    expect(closed).toEqual([]);
    streams.endCancelled(transport, cancel(7));
    streams.endCancelled(transport, cancel(7));
    expect(closed).toEqual([7]);
  });

  it("leaves a batch's stream, an ended response and unknown ids alone", () => {
    const streams = new CancelledStreams();
    const { transport, closed } = recorder();
    streams.watch(new EventEmitter(), [1, 2]);
    const ended = new EventEmitter();
    streams.watch(ended, ["done"]);
    ended.emit("close");
    streams.endCancelled(transport, [cancel(1), cancel(2), cancel("done"), cancel(99)]);
    expect(closed).toEqual([]);
  });

  it("reads the cancelled ids of one message or a batch", () => {
    expect(cancelledIds(cancel("a"))).toEqual(["a"]);
    expect(cancelledIds([cancel(1), { method: "tools/call", id: 2 }, cancel(null), null])).toEqual([
      1,
    ]);
  });
});
