import { describe, expect, it } from "vitest";
import { EarlyCancels } from "./early-cancels.ts";

const call = (id: number) => ({ jsonrpc: "2.0", id, method: "tools/call", params: {} });
const cancel = (requestId: number) => ({
  jsonrpc: "2.0",
  method: "notifications/cancelled",
  params: { requestId },
});

describe("EarlyCancels", () => {
  it("drops a request whose cancel arrived first, once", () => {
    const early = new EarlyCancels();
    expect(early.filter([cancel(7)])).toEqual([cancel(7)]);
    expect(early.filter([call(7)])).toEqual([]);
    expect(early.filter([call(7)])).toEqual([call(7)]);
  });

  it("leaves requests alone whose cancel came after them", () => {
    const early = new EarlyCancels();
    expect(early.filter([call(1)])).toEqual([call(1)]);
    early.filter([cancel(1)]);
    expect(early.filter([call(2), call(1)])).toEqual([call(2), call(1)]);
  });

  it("forgets early cancels after their time to live, and bounds them", () => {
    const early = new EarlyCancels({ ttlMs: 100, maxEarly: 1 });
    early.filter([cancel(1), cancel(2)], 0);
    expect(early.filter([call(2)], 50)).toEqual([call(2)]);
    expect(early.filter([call(1)], 201)).toEqual([call(1)]);
  });

  it("passes malformed messages through for the transport to answer", () => {
    const early = new EarlyCancels();
    expect(early.filter([null, 3, { hello: 1 }])).toEqual([null, 3, { hello: 1 }]);
  });
});
