import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compareCodePoints } from "./compare-code-points.ts";
import { TopK } from "./top-k.ts";

describe("TopK", () => {
  it("keeps exactly what a full sort would put first", () => {
    const entries = fc.array(
      fc.record({ name: fc.string({ maxLength: 4 }), score: fc.integer({ min: 1, max: 5 }) }),
      { maxLength: 40 },
    );
    fc.assert(
      fc.property(entries, fc.integer({ min: 1, max: 10 }), (items, limit) => {
        const names = items.map((item) => item.name);
        const top = new TopK(limit, names);
        for (const [document, item] of items.entries()) top.offer(document, item.score);
        const expected = items
          .map((item, document) => ({ ...item, document }))
          .sort(
            (a, b) =>
              b.score - a.score ||
              a.name.length - b.name.length ||
              compareCodePoints(a.name, b.name),
          )
          .slice(0, limit)
          .map((item) => [item.score, item.name]);
        const kept = top.documents().map((document) => {
          const item = items[document] as { name: string; score: number };
          return [item.score, item.name];
        });
        expect(kept).toEqual(expected);
      }),
    );
  });
});
