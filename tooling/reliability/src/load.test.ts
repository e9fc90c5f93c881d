import { revisions, type TestClient } from "@dcc/mcp-test-clients";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  assertServing,
  callTool,
  generousMs,
  type ReliabilityServer,
  resultText,
  startReliabilityServer,
} from "./__fixtures__/reliability-server.ts";

// A short form of the load run; `pnpm bench` runs 20 s and reports throughput and p99. Each
// session runs for `durationMs` and at least `minRounds` calls, whichever takes longer, so how
// fast a loaded machine is changes how long the test takes, never what it checks. The sessions
// alternate between the two protocol revisions, so both are served at once on one endpoint.
const sessions = 8;
const durationMs = 3000;
const minRounds = 6;
/** Far more than any call here needs; only the behaviour under test ends one early. */
const scriptSecs = 60;
const callBoundMs = scriptSecs * 1000 + generousMs;

const queries = ["create a sphere", "move an object", "set keyframe", "list selected", "parent"];
const scripts = [
  "return 1 + 1;",
  "return dispatch('objExists', { args: ['lambert1'] });",
  "const [cube] = dispatch('polyCube', {}); dispatch('move', { args: [1, 2, 3, cube] }); dispatch('delete', { args: [cube] }); return cube;",
  "let sum = 0; for (let i = 0; i < 10000; i++) sum += i; return sum;",
];

/**
 * One search or one execute from the mixes above, chosen by `index`; pushes a failed answer's
 * text to `errors`.
 */
async function mixedCall(
  client: TestClient,
  search: boolean,
  index: number,
  errors: string[],
): Promise<void> {
  const { result } = search
    ? await callTool(
        client,
        "dcc_search",
        { query: queries[index % queries.length] as string, limit: 5 },
        callBoundMs,
      )
    : await callTool(
        client,
        "dcc_execute",
        { code: scripts[index % scripts.length] as string, timeout_secs: scriptSecs },
        callBoundMs,
      );
  if (result.isError || result.structuredContent?.["success"] !== true)
    errors.push(resultText(result).slice(0, 300));
}

let harness: ReliabilityServer;
let clients: TestClient[];

beforeAll(async () => {
  harness = await startReliabilityServer();
  clients = await Promise.all(
    Array.from({ length: sessions }, (_, index) =>
      harness.connect(revisions[index % revisions.length]),
    ),
  );
});

afterAll(async () => {
  await harness?.close();
});

describe("load", () => {
  it(`${sessions} concurrent sessions mixing search and execute for ${durationMs / 1000} s: zero errors`, async () => {
    expect(new Set(clients.map((client) => client.protocolVersion()))).toEqual(new Set(revisions));
    const errors: string[] = [];
    let calls = 0;
    const deadline = Date.now() + durationMs;
    await Promise.all(
      clients.map(async (client, session) => {
        for (let round = 0; round < minRounds || Date.now() < deadline; round++) {
          try {
            await mixedCall(client, round % 2 === 0, round + session, errors);
            calls++;
          } catch (error) {
            errors.push(String(error));
          }
        }
      }),
    );
    expect(errors).toEqual([]);
    expect(calls).toBeGreaterThanOrEqual(sessions * minRounds);
  });

  it("the same load with every third execute cancelled mid-run: zero errors, every cancel lands", async () => {
    const errors: string[] = [];
    let cancelled = 0;
    const deadline = Date.now() + durationMs;
    await Promise.all(
      clients.map(async (client, session) => {
        for (let round = 0; round < minRounds || Date.now() < deadline; round++) {
          try {
            if (round % 3 === 2) {
              // A spinning script, cancelled by the client shortly after it was sent.
              const abort = new AbortController();
              const call = client.callTool(
                {
                  name: "dcc_execute",
                  arguments: { code: "for (;;) {}", timeout_secs: scriptSecs },
                },
                { signal: abort.signal, timeout: callBoundMs },
              );
              setTimeout(() => abort.abort(), 5 + ((round * 7 + session) % 20));
              await call.then(
                (result) => errors.push(`not cancelled: ${JSON.stringify(result).slice(0, 200)}`),
                (error: unknown) => {
                  if (error instanceof Error && /abort/i.test(`${error.name} ${error.message}`))
                    cancelled++;
                  else errors.push(String(error));
                },
              );
              continue;
            }
            await mixedCall(client, round % 3 === 0, round + session, errors);
          } catch (error) {
            errors.push(String(error));
          }
        }
      }),
    );
    expect(errors).toEqual([]);
    expect(cancelled).toBeGreaterThanOrEqual(sessions * Math.floor(minRounds / 3));
    // Every cancel lands: each spinning script would run for its 60 s timeout, so the server
    // having no call left well before that means all of them were stopped.
    expect(await harness.idle()).toBe(true);
    await Promise.all(clients.map((client) => assertServing(client)));
  });
});
