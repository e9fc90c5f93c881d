import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { identifierParts, identifierWords, rawWords } from "./split-words.ts";

const part = /\p{Lu}+(?![\p{Ll}\p{M}])|\p{Lu}?[\p{Ll}\p{Lo}\p{Lm}\p{Lt}\p{M}]+|\p{Lu}+|\p{N}+/gu;

describe("identifierParts", () => {
  it.each([
    ["polySphere", ["poly", "sphere"]],
    ["XMLHttpRequest2", ["xml", "http", "request", "2"]],
    ["poly_sphere", ["poly", "sphere"]],
    ["moveXYZ", ["move", "xyz"]],
    ["is64", ["is", "64"]],
    ["créerSphère", ["créer", "sphère"]],
  ])("splits %s", (word, parts) => {
    expect(identifierParts(word)).toEqual(parts);
  });

  it("splits ASCII words exactly as the Unicode rule does", () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[A-Za-z0-9_]{1,16}$/), (word) => {
        const expected = (word.match(part) ?? []).map((piece) => piece.toLowerCase());
        expect(identifierParts(word)).toEqual(expected);
      }),
    );
  });
});

describe("rawWords", () => {
  it("keeps letters, marks and digits and stops at the limit", () => {
    expect(rawWords("create a poly-sphere, café 2x")).toEqual([
      "create",
      "a",
      "poly",
      "sphere",
      "café",
      "2x",
    ]);
    expect(rawWords("a b c d", 2)).toEqual(["a", "b"]);
  });
});

describe("identifierWords", () => {
  it("keeps underscores inside words, as signature parameter names do", () => {
    expect(identifierWords("uv_set2, createUVs -radius  créer_sphère")).toEqual([
      "uv_set2",
      "createUVs",
      "radius",
      "créer_sphère",
    ]);
    expect(identifierWords(" ,;- ")).toEqual([]);
  });

  it("splits plain ASCII identifiers exactly as the Unicode rule does", () => {
    const identifier = /[\p{L}\p{M}\p{N}_]+/gu;
    fc.assert(
      fc.property(fc.stringMatching(/^[A-Za-z0-9_ ,-]{0,16}$/), (text) => {
        expect(identifierWords(text)).toEqual(text.match(identifier) ?? []);
      }),
    );
  });
});
