import { describe, expect, it } from "vitest";
import { packCall, unpackCall } from "./worker-protocol.ts";

describe("packCall / unpackCall", () => {
  it("gives back the run, sequence number, name and arguments it was given", () => {
    const call = { id: 12, seq: 3456, name: "scene.objects.new", args: '{"name":"a b","i":1}' };
    expect(unpackCall(packCall(call.id, call.seq, call.name, call.args))).toEqual(call);
  });

  it("keeps names that hold spaces, U+0001 or nothing, and arguments that hold spaces", () => {
    for (const name of ["", "with space", "a\u0001b", "\u0001", "x".repeat(300)]) {
      for (const args of ["null", "", '"  "', '{"k":" \\u0001 "}']) {
        expect(unpackCall(packCall(1, 2, name, args))).toEqual({ id: 1, seq: 2, name, args });
      }
    }
  });
});
