import { describe, expect, it } from "vitest";
import { maxPreapproved, preapprovedProblem } from "./approval-names.ts";

describe("preapprovedProblem", () => {
  it("takes no pre-approval, or kebab-case rule names", () => {
    expect(preapprovedProblem(undefined)).toBeUndefined();
    expect(preapprovedProblem([])).toBeUndefined();
    expect(preapprovedProblem(["delete", "remove-nodes", "publish2"])).toBeUndefined();
  });

  it("names what is wrong with anything else", () => {
    expect(preapprovedProblem("delete")).toBe(
      'preapproved must be an array of approval rule names, not the string "delete"',
    );
    expect(preapprovedProblem(null)).toMatch(/not null$/);
    expect(preapprovedProblem([7])).toBe(
      "preapproved[0] must be a rule name (a string), not number",
    );
    expect(preapprovedProblem(["delete", "Delete"])).toMatch(
      /^preapproved\[1\] "Delete" is not a rule name: rule names are kebab-case \(like delete, overwrite, open, render\)/,
    );
    for (const bad of ["", "-x", "9x", "a b", "a_b", "x".repeat(65)]) {
      expect(preapprovedProblem([bad])).toMatch(/is not a rule name/);
    }
    expect(preapprovedProblem(Array.from({ length: maxPreapproved + 1 }, (_, i) => `r${i}`))).toBe(
      `preapproved names ${maxPreapproved + 1} rules; at most ${maxPreapproved} are taken`,
    );
  });
});
