import { describe, expect, it } from "vitest";
import { namesOnAnyNode, plugAttributeNames } from "./maya-policy-attributes.ts";

describe("plugAttributeNames", () => {
  it("gives the attribute names of a plug, without node, namespace, path or indices", () => {
    expect(plugAttributeNames("defaultRenderGlobals.preMel")).toEqual(["preMel"]);
    expect(plugAttributeNames("|grp|ns:file1.fileTextureName")).toEqual(["fileTextureName"]);
    expect(plugAttributeNames("node.parent[0].child[2]")).toEqual(["parent", "child"]);
    expect(plugAttributeNames(".prm")).toEqual(["prm"]);
    expect(plugAttributeNames("preMel")).toEqual(["preMel"]);
  });
});

describe("namesOnAnyNode", () => {
  it("takes long and short names of the groups marked anyNode only", () => {
    const names = namesOnAnyNode([
      { nodeTypes: ["renderGlobals"], anyNode: true, attributes: { preMel: "pram", other: null } },
      { nodeTypes: ["script"], anyNode: false, attributes: { before: "b" } },
    ]);
    expect([...names].sort()).toEqual(["other", "pram", "preMel"]);
  });
});
