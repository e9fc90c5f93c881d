import { describe, expect, it } from "vitest";
import { maxPreapproved, parseApprovalFlags, preapprovedProblem } from "./approval-flags.ts";

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

describe("parseApprovalFlags", () => {
  it("turns on shared rules and custom ones, the flag winning over the environment", () => {
    expect(parseApprovalFlags({})).toBeUndefined();
    expect(parseApprovalFlags({ envAsk: "delete, render" })).toEqual({
      ask: ["delete", "render"],
    });
    expect(parseApprovalFlags({ ask: "", envAsk: "delete" })).toBeUndefined();
    const parsed = parseApprovalFlags({
      ask: "publish,delete",
      askRules: ["publish=exportAll,file"],
    });
    expect(parsed?.ask).toEqual(["publish", "delete"]);
    expect(parsed?.rules?.map((rule) => [rule.name, rule.commands])).toEqual([
      ["publish", ["exportAll", "file"]],
    ]);
  });

  it("refuses unknown, clashing, empty and unused rules with the flag to fix", () => {
    const refusal = (flags: Parameters<typeof parseApprovalFlags>[0]): string => {
      try {
        parseApprovalFlags(flags);
      } catch (error) {
        expect((error as { code?: string }).code).toBe("INVALID_APPROVAL_RULE");
        return (error as Error).message;
      }
      throw new Error("not refused");
    };
    expect(refusal({ ask: "delet" })).toMatch(
      /Unknown approval rule "delet" in --ask: use one of delete, overwrite, open, render/,
    );
    expect(refusal({ envAsk: "delet" })).toMatch(/in DCC_MCP_ASK/);
    expect(refusal({ ask: "delete", askRules: ["delete=remove"] })).toMatch(
      /delete is a shared rule/,
    );
    expect(refusal({ ask: "publish", askRules: ["publish"] })).toMatch(
      /name the commands it covers/,
    );
    expect(refusal({ ask: "delete", askRules: ["publish=file"] })).toMatch(
      /defines a rule that is not on/,
    );
    expect(refusal({ ask: "publish", askRules: ["publish=a", "publish=b"] })).toMatch(
      /defined twice/,
    );
  });
});
