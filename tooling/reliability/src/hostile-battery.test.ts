import { randomUUID } from "node:crypto";
import type { TestClient } from "@dcc/mcp-test-clients";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  assertServing,
  callTool,
  generousMs,
  type ReliabilityServer,
  resultText,
  startReliabilityServer,
} from "./__fixtures__/reliability-server.ts";
import { hostileScripts, secretName } from "./hostile-scripts.ts";

const secret = `sk-reliability-${randomUUID()}`;
const prototypeNames = (): string[][] =>
  [Object.prototype, Array.prototype, Function.prototype, String.prototype, Object].map((proto) =>
    Object.getOwnPropertyNames(proto).sort(),
  );

let harness: ReliabilityServer;
let client: TestClient;
let before: string[][];
const seen: string[] = [];

beforeAll(async () => {
  // The secret is in the server's environment before the server (and its workers) start.
  process.env[secretName] = secret;
  before = prototypeNames();
  harness = await startReliabilityServer();
  client = await harness.connect();
  await assertServing(client);
});

// After every entry (known bugs included): nothing leaked into the host, the secret never showed,
// and the server still answers a search and a trivial execute.
afterEach(async () => {
  const text = seen.at(-1) ?? "";
  expect(text).not.toContain(secret);
  expect(prototypeNames()).toEqual(before);
  expect(({} as Record<string, unknown>)["polluted"]).toBeUndefined();
  await assertServing(client);
});

afterAll(async () => {
  await harness?.close();
  delete process.env[secretName];
});

describe("the hostile-script battery", () => {
  it("has at least 40 scripts with distinct names", () => {
    expect(hostileScripts.length).toBeGreaterThanOrEqual(40);
    expect(new Set(hostileScripts.map((script) => script.name)).size).toBe(hostileScripts.length);
  });

  for (const { name, group, args, expect: expectation, knownBug } of hostileScripts) {
    // A known bug runs as `it.fails`: the entry still runs, and turns red once the bug is fixed.
    const test = knownBug === undefined ? it : it.fails;
    const limitSecs =
      typeof args["timeout_secs"] === "number" && Number.isInteger(args["timeout_secs"])
        ? Math.min(300, Math.max(1, args["timeout_secs"]))
        : 30;
    // The script's own limit ends it; the request bound only catches a server that never
    // answers, and is generous because a loaded machine may answer a timeout seconds late.
    const boundMs = limitSecs * 1000 + generousMs;
    test(
      `${group}: ${name}${knownBug === undefined ? "" : " (known bug)"}`,
      async () => {
        const { result } = await callTool(client, "dcc_execute", args, boundMs);
        const text = resultText(result);
        seen.push(text);

        // A clear answer: which limit or error ended the script, never how fast.
        const structured = result.structuredContent;
        switch (expectation.kind) {
          case "ok": {
            expect(structured?.["success"], text.slice(0, 600)).toBe(true);
            expect(result.isError).toBeFalsy();
            if ("output" in expectation) expect(structured?.["output"]).toEqual(expectation.output);
            expectation.check?.(structured?.["output"], (structured?.["logs"] as unknown[]) ?? []);
            break;
          }
          case "error": {
            expect(structured?.["success"], text.slice(0, 600)).toBe(false);
            expect(result.isError).toBe(true);
            expect(structured?.["errorCode"], text.slice(0, 600)).toBe(expectation.errorCode);
            if (expectation.limit !== undefined)
              expect(structured?.["limit"], text.slice(0, 600)).toBe(expectation.limit);
            expect(typeof structured?.["message"]).toBe("string");
            expect(typeof structured?.["error"]).toBe("string");
            if (expectation.error !== undefined)
              expect(structured?.["error"]).toMatch(expectation.error);
            break;
          }
          case "refused": {
            expect(result.isError).toBe(true);
            expect(text).toMatch(expectation.text);
            break;
          }
        }
      },
      boundMs + generousMs,
    );
  }

  it("never showed the server's secret in any output", () => {
    expect(seen.length).toBe(hostileScripts.length);
    for (const text of seen) expect(text).not.toContain(secret);
  });
});
