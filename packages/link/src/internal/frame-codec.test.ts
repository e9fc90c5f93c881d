import { describe, expect, it } from "vitest";
import { decodeBody, FrameDecoder, FrameViolation, frameFromJson } from "./frame-codec.ts";

const encode = (value: unknown): Buffer => frameFromJson(JSON.stringify(value));

describe("the Node frame codec", () => {
  it("writes a 4-byte big-endian length before the UTF-8 body", () => {
    const frame = frameFromJson('{"type":"t","s":"été"}');
    expect(frame.readUInt32BE(0)).toBe(Buffer.byteLength('{"type":"t","s":"été"}'));
    expect(frame.subarray(4).toString("utf8")).toBe('{"type":"t","s":"été"}');
  });

  it("decodes frames split at every byte, and several in one chunk", () => {
    const stream = Buffer.concat([encode({ type: "a", n: 1 }), encode({ type: "b", s: "ü" })]);
    const decoder = new FrameDecoder(1024);
    const decoded = [];
    for (let index = 0; index < stream.length; index++) {
      decoded.push(...decoder.push(stream.subarray(index, index + 1)));
    }
    expect(decoded).toEqual([
      { type: "a", n: 1 },
      { type: "b", s: "ü" },
    ]);
    expect(new FrameDecoder(1024).push(Buffer.concat([stream, stream]))).toHaveLength(4);
  });

  it("refuses an oversized frame from its header, before the body arrives", () => {
    const header = Buffer.alloc(4);
    header.writeUInt32BE(1025);
    expect(() => new FrameDecoder(1024).push(header)).toThrowError(
      expect.objectContaining({ code: "FRAME_TOO_LARGE" }),
    );
  });

  it("accepts a body exactly at the limit", () => {
    const body = JSON.stringify({ type: "t", p: "x".repeat(1000) });
    const decoder = new FrameDecoder(Buffer.byteLength(body));
    expect(decoder.push(frameFromJson(body))).toHaveLength(1);
  });

  it.each([
    ["invalid UTF-8", Buffer.from([0x7b, 0xff, 0x7d])],
    ["not JSON", Buffer.from("hello")],
    ["empty", Buffer.alloc(0)],
    ["an array", Buffer.from("[1]")],
    ["an object without a type", Buffer.from("{}")],
    ["a numeric type", Buffer.from('{"type":1}')],
    ["NaN", Buffer.from('{"type":"t","v":NaN}')],
  ])("calls %s a bad frame", (_what, body) => {
    expect(() => decodeBody(body)).toThrowError(FrameViolation);
    expect(() => decodeBody(body)).toThrowError(expect.objectContaining({ code: "BAD_FRAME" }));
  });
});
