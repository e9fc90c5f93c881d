import { Tiktoken } from "js-tiktoken/lite";
import o200k from "js-tiktoken/ranks/o200k_base";
import { describe, expect, it } from "vitest";
import { executeDescription, searchDescription } from "./tool-descriptions.ts";

const encoder = new Tiktoken(o200k);
const tokens = (text: string): number => encoder.encode(text).length;

describe("tool descriptions", () => {
  it("fit both tools in at most 600 o200k tokens", () => {
    const total =
      tokens(searchDescription("maya", "dcc_execute")) +
      tokens(executeDescription("maya", "dcc_search"));
    expect(total).toBeGreaterThan(100);
    expect(total).toBeLessThanOrEqual(600);
  });

  it("state the executor's own timeout figures, and none when it states no limits", () => {
    const limits = { timeoutSecs: 7, maxTimeoutSecs: 90, maxCodeChars: 1000 };
    expect(executeDescription("maya", "dcc_search", limits)).toContain(
      "timeout_secs defaults to 7 (max 90)",
    );
    const plain = executeDescription("maya", "dcc_search");
    expect(plain).toContain("timeout_secs bounds the run");
    expect(plain).not.toMatch(/defaults to \d/);
  });

  it("teach the whole contract", () => {
    const text = executeDescription("maya", "dcc_search", {
      timeoutSecs: 30,
      maxTimeoutSecs: 300,
      maxCodeChars: 100_000,
    });
    for (const part of [
      "dispatch(name, args)",
      "throws",
      "return",
      "logs",
      "progress(",
      "timeout_secs",
      "300",
      "dcc_search",
      "job_action",
      "async: true",
      "rollback",
      "keep_partial",
      "undo step",
    ]) {
      expect(text).toContain(part);
    }
    expect(text).toMatch(/dispatch\("polySphere".*\n.*return/);
    expect(searchDescription("maya", "dcc_execute")).toContain("before dcc_execute");
  });
});
