import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { CommandRecord } from "../command-record.ts";
import { DEFAULT_SYNONYMS } from "../default-synonyms.ts";
import { RankedIndex } from "./ranked-index.ts";
import { buildSynonymMap } from "./synonym-groups.ts";

const commands: CommandRecord[] = [
  {
    name: "polySphere",
    signature: "polySphere(radius: float, subdivisionsAxis: int) -> List[str]",
  },
  {
    name: "polyCube",
    signature: "polyCube(width: float, height: float, depth: float) -> List[str]",
  },
  { name: "createNode", signature: "createNode(nodeType: str, name: str, parent: str) -> str" },
  { name: "move", signature: "move(x: float, y: float, z: float, relative: bool) -> None" },
  { name: "polyUnite", signature: "polyUnite(mergeUVSets: int, centerPivot: bool) -> List[str]" },
  {
    name: "setKeyframe",
    signature: "setKeyframe(time: float, value: float, attribute: str) -> int",
  },
  { name: "hyperShade", signature: "hyperShade(assign: str, objects: str) -> str" },
  { name: "getAttr", signature: "getAttr(attribute: str, time: float) -> Any" },
  { name: "render", description: "Render the current frame with the active renderer" },
];

function search(
  query: string,
  options: { limit?: number; extra?: CommandRecord[] } = {},
): string[] {
  const records = [...commands, ...(options.extra ?? [])];
  const index = new RankedIndex(records, buildSynonymMap([DEFAULT_SYNONYMS]));
  return index.search(query, options.limit ?? 10).map((position) => records[position]?.name ?? "");
}

describe("RankedIndex", () => {
  it("splits camelCase names and stems plurals and verb forms", () => {
    expect(search("spheres")[0]).toBe("polySphere");
    expect(search("rendering")[0]).toBe("render");
    expect(search("creating nodes")[0]).toBe("createNode");
  });

  it("matches flags in the signature, below a name match", () => {
    expect(search("radius")).toEqual(["polySphere"]);
    expect(search("attribute")[0]).toBe("getAttr");
  });

  it("uses general synonyms: translate finds move, unite finds combine", () => {
    expect(search("translate an object")[0]).toBe("move");
    expect(search("combine meshes")[0]).toBe("polyUnite");
    expect(search("set a key")[0]).toBe("setKeyframe");
    expect(search("make a cube")[0]).toBe("polyCube");
    expect(search("apply a shader")[0]).toBe("hyperShade");
  });

  it("matches prefixes, abbreviations in names and small typos", () => {
    expect(search("sphe")[0]).toBe("polySphere");
    expect(search("get attribute")[0]).toBe("getAttr");
    expect(search("shpere")[0]).toBe("polySphere");
    expect(search("keyframme")[0]).toBe("setKeyframe");
  });

  it("corrects typos in several words of one query, on the words as typed", () => {
    expect(search("craete a spehre").slice(0, 2).sort()).toEqual(["createNode", "polySphere"]);
    expect(search("rnder the curent frame")[0]).toBe("render");
    // "chidlren" is far from the stem "child" but one edit from "children" as written.
    const extra = [
      { name: "listRelatives", signature: "listRelatives(children: bool) -> List[str]" },
    ];
    expect(search("lsit chidlren", { extra })[0]).toBe("listRelatives");
    expect(search("chidlren", { extra })).toEqual(["listRelatives"]);
  });

  it("corrects an unknown word even when a shorter indexed word starts it", () => {
    // "cone" starts "conect", but "conect" is one edit from "connect": a typo, not an abbreviation.
    const extra = [
      { name: "cone", signature: "cone(radius: float) -> List[str]" },
      { name: "connectAttr", signature: "connectAttr(force: bool) -> None" },
    ];
    expect(search("conect", { extra })[0]).toBe("connectAttr");
    expect(search("conect", { extra })).not.toContain("cone");
    // A word being typed still finds the longer words it starts.
    expect(search("connec", { extra })).toContain("connectAttr");
  });

  it("matches the synonyms of a corrected word", () => {
    // "joinn" is one edit from join (joinCurves), a synonym of unite (polyUnite).
    const extra = [{ name: "joinCurves", signature: "joinCurves(tolerance: float) -> str" }];
    expect(search("joinn", { extra })).toEqual(["joinCurves", "polyUnite"]);
  });

  it("ranks a description that says the whole task above a name that says one word of it", () => {
    const extra = [
      { name: "joint", signature: "joint(position: float, name: str) -> str" },
      { name: "reroot", description: "Make a different joint the root of a skeleton." },
    ];
    expect(search("make a different joint the root of the skeleton", { extra })[0]).toBe("reroot");
    // A description that holds only part of the query gains little: the name match still leads.
    expect(search("joint position", { extra })[0]).toBe("joint");
  });

  it("drops forms of be and have, and reads find as list", () => {
    const extra = [
      { name: "hasMetadata", signature: "hasMetadata(channelName: str) -> bool" },
      { name: "getMetadata", signature: "getMetadata(channelName: str) -> List[Any]" },
      { name: "cameraView", signature: "cameraView(camera: str) -> str" },
      { name: "listCameras", signature: "listCameras(perspective: bool) -> List[str]" },
    ];
    expect(search("get the metadata a node has", { extra })[0]).toBe("getMetadata");
    expect(search("has been", { extra })).toEqual([]);
    expect(search("find cameras", { extra })[0]).toBe("listCameras");
  });

  it("weighs rare words above common ones (IDF)", () => {
    const extra = Array.from({ length: 30 }, (_, index) => ({
      name: `tool${index}`,
      signature: `tool${index}(create: bool) -> None`,
    }));
    expect(search("create sphere", { extra })[0]).toBe("polySphere");
  });

  it("never returns a command that matches no query word", () => {
    expect(search("zebra")).toEqual([]);
    expect(search("the of an")).toEqual([]);
  });

  it("returns distinct results, at most limit, for any query", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 40 }), fc.integer({ min: 1, max: 50 }), (query, limit) => {
        const names = search(query, { limit });
        expect(names.length).toBeLessThanOrEqual(limit);
        expect(new Set(names).size).toBe(names.length);
      }),
    );
  });

  it("finishes a 10 KB query in bounded work", () => {
    const query = Array.from({ length: 2000 }, (_, index) => `word${index} sphere`).join(" ");
    expect(query.length).toBeGreaterThan(10_000);
    expect(search(query).length).toBeGreaterThan(0);
  });
});
