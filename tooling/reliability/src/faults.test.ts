import { revisions, type TestClient } from "@dcc/mcp-test-clients";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { releaseHangs } from "./__fixtures__/fault-commands.ts";
import {
  assertServing,
  callTool,
  generousMs,
  type ReliabilityServer,
  resultText,
  startReliabilityServer,
  type ToolResult,
  waitUntil,
} from "./__fixtures__/reliability-server.ts";
import { busiestWorker, trackWorkers, type WorkerTracker } from "./__fixtures__/worker-tracker.ts";

let tracker: WorkerTracker;
let harness: ReliabilityServer;
let client: TestClient;

beforeAll(async () => {
  tracker = trackWorkers();
  harness = await startReliabilityServer();
  client = await harness.connect();
  await assertServing(client);
});

afterAll(async () => {
  await harness?.close();
  tracker?.restore();
});

afterEach(async () => {
  // Every fault leaves a server that still answers, including a script that dispatches.
  await assertServing(client);
  const { result } = await run("return dispatch('objExists', { args: ['nothing'] });");
  expect(result.structuredContent?.["output"], resultText(result)).toBe(false);
});

/**
 * Runs a script. The default 30 s is far more than any script here needs, so only the fault under
 * test ends one early; the request bound is generous on top, to catch a server that never answers.
 */
const run = (code: string, timeoutSecs = 30): Promise<{ result: ToolResult }> =>
  callTool(
    client,
    "dcc_execute",
    { code, timeout_secs: timeoutSecs },
    timeoutSecs * 1000 + generousMs,
  );

const structured = (result: ToolResult): Record<string, unknown> => result.structuredContent ?? {};

describe("host commands that fail", () => {
  it("a command that throws an Error with a code reaches the script as a catchable error", async () => {
    const { result } = await run(
      "try { dispatch('faultThrow', {}); } catch (error) { return { name: error.name, command: error.command, code: error.code, message: error.message }; }",
    );
    expect(structured(result)["output"]).toEqual({
      name: "CommandError",
      command: "faultThrow",
      code: "FAULT_BOOM",
      message: "faultThrow failed on purpose",
    });
  });

  it("an uncaught command error fails the script and names the command", async () => {
    const { result } = await run("dispatch('faultThrow', {}); return 'unreachable';");
    expect(result.isError).toBe(true);
    expect(structured(result)).toMatchObject({ success: false, errorCode: "SCRIPT_ERROR" });
    expect(structured(result)["error"]).toMatch(/faultThrow failed on purpose/);
  });

  it("a thrown non-Error value and a rejected promise become COMMAND_FAILED", async () => {
    const { result } = await run(
      "const codes = []; for (const name of ['faultThrowValue', 'faultReject']) { try { dispatch(name, {}); } catch (error) { codes.push([error.code, error.message]); } } return codes;",
    );
    const codes = structured(result)["output"] as Array<[string, string]>;
    expect(codes.map(([code]) => code)).toEqual(["COMMAND_FAILED", "COMMAND_FAILED"]);
    expect(codes[1]?.[1]).toMatch(/faultReject rejected on purpose/);
  });
});

describe("host commands that return values JSON cannot carry", () => {
  it("a BigInt becomes its decimal string", async () => {
    const { result } = await run("return dispatch('faultBigInt', {});");
    expect(structured(result)["output"]).toBe("12345678901234567890");
  });

  it("a cyclic object is an INVALID_RESULT error naming the command", async () => {
    const { result } = await run(
      "try { dispatch('faultCyclic', {}); } catch (error) { return [error.code, error.command, error.message]; }",
    );
    const [code, command, message] = structured(result)["output"] as string[];
    expect(code).toBe("INVALID_RESULT");
    expect(command).toBe("faultCyclic");
    expect(message).toMatch(/not JSON-representable/);
  });

  it("a function or a symbol is an INVALID_RESULT error, not a silent undefined", async () => {
    const { result } = await run(
      "const seen = []; for (const name of ['faultFunction', 'faultSymbol']) { try { seen.push(['value', String(dispatch(name, {}))]); } catch (error) { seen.push([error.code, error.message]); } } return seen;",
    );
    const seen = structured(result)["output"] as Array<[string, string]>;
    expect(seen.map(([code]) => code)).toEqual(["INVALID_RESULT", "INVALID_RESULT"]);
  });

  it("a function nested in a result is dropped as JSON drops it", async () => {
    const { result } = await run("return dispatch('faultNestedFunction', {});");
    expect(structured(result)["output"]).toEqual({ ok: 1 });
  });

  it("a 5 MB result reaches the script", async () => {
    const { result } = await run("return dispatch('faultHuge', {}).length;");
    expect(structured(result)["output"]).toBe(5 * 1024 * 1024);
  });
});

describe("host commands that hang past the timeout", () => {
  it("a command that honours its signal is aborted at the timeout; completion is unknown", async () => {
    const before = harness.faults.abortedHangs;
    const { result } = await run("dispatch('faultHangAbortable', {}); return 'unreachable';", 2);
    expect(structured(result)).toMatchObject({ errorCode: "TIMEOUT", completion: "unknown" });
    expect(await waitUntil(() => harness.faults.abortedHangs === before + 1)).toBe(true);
  });

  it("a command that ignores its signal still ends the script at the timeout", async () => {
    // The hang never settles by itself, so only the timeout can end this script.
    const { result } = await run("dispatch('faultHang', {}); return 'unreachable';", 2);
    expect(structured(result)).toMatchObject({ errorCode: "TIMEOUT", completion: "unknown" });
    releaseHangs(harness.faults);
  });

  // Found by this suite: the dispatcher's queue stayed held by the hung handler, so every later
  // dispatch waited until its own script timed out. Fixed in 8097b43 (HOST_BUSY).
  it("after a command that ignores its signal, the next script's dispatch runs or fails fast as busy", async () => {
    try {
      const hung = await run("dispatch('faultHang', {}); return 'unreachable';", 2);
      expect(structured(hung.result)).toMatchObject({ errorCode: "TIMEOUT" });
      const { result } = await run(
        "try { return dispatch('objExists', { args: ['nothing'] }); } catch (error) { return error.code; }",
      );
      expect(structured(result)["success"], resultText(result)).toBe(true);
      expect([false, "HOST_BUSY"]).toContain(structured(result)["output"]);
    } finally {
      releaseHangs(harness.faults);
    }
  });
});

describe("a sandbox worker killed from outside", () => {
  it("mid-loop: the call fails with a clear error and the pool is whole again", async () => {
    const marks = harness.faults.marks;
    // Spins until its 60 s timeout unless the kill ends it: INTERNAL (not TIMEOUT) says which.
    const call = run("dispatch('faultMark', {}); for (;;) {}", 60);
    expect(await waitUntil(() => harness.faults.marks > marks)).toBe(true);
    const workers = tracker.live();
    const victim = await busiestWorker(workers);
    expect(victim).toBeDefined();
    await victim?.terminate();
    const { result } = await call;
    expect(structured(result)).toMatchObject({ success: false, errorCode: "INTERNAL" });
    expect(structured(result)["error"]).toMatch(/worker/i);
    // The killed thread is replaced: as many sandbox threads as before, none of them the victim.
    const whole = await waitUntil(
      () => tracker.live().length === workers.length && !tracker.live().includes(victim as never),
    );
    expect(whole, `${tracker.live().length} live workers, ${workers.length} before`).toBe(true);
  });

  it("while the script waits in dispatch: the host command is aborted and completion is unknown", async () => {
    const started = harness.faults.startedSlow;
    const aborted = harness.faults.abortedSlow;
    // faultSlow outlasts the script's timeout, so only the kill can end the script with INTERNAL.
    const call = run("dispatch('faultSlow', { ms: 120000 }); return 1;", 60);
    expect(await waitUntil(() => harness.faults.startedSlow > started)).toBe(true);
    // The worker blocked in Atomics.wait is idle to the event loop; kill every sandbox thread.
    const workers = tracker.live();
    await Promise.all(workers.map((worker) => worker.terminate()));
    const { result } = await call;
    expect(structured(result)).toMatchObject({
      success: false,
      errorCode: "INTERNAL",
      completion: "unknown",
    });
    expect(await waitUntil(() => harness.faults.abortedSlow === aborted + 1)).toBe(true);
    expect(await waitUntil(() => tracker.live().length >= 1)).toBe(true);
    expect(tracker.live().some((worker) => workers.includes(worker))).toBe(false);
  });
});

describe.each(revisions)("a client that goes away mid-call (%s)", (revision) => {
  // At least 5 ms between calls, so the dispatch call limit (10,000) is 50 s away and the timeout
  // 60 s: past the wait in expectStopped, so only a cancellation can end the script within it.
  // Each script counts under its own key, so one that was not stopped cannot decide another test.
  const spinUntilStopped = (key: string): string =>
    `for (;;) { dispatch('faultCount', { key: '${key}' }); const until = Date.now() + 5; while (Date.now() < until) {} }`;
  const count = (key: string): number => harness.faults.countedBy.get(key) ?? 0;

  async function expectStopped(key: string): Promise<void> {
    // The script spins until its 60 s timeout unless the cancel lands: the server has no call
    // left running long before that (bounded generously), and no dispatch comes after it.
    expect(await harness.idle(), `the ${key} script still runs`).toBe(true);
    const frozen = count(key);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(count(key)).toBe(frozen);
  }

  async function startSpinning(
    caller: TestClient,
    key: string,
    signal?: AbortSignal,
  ): Promise<void> {
    const call = caller.callTool(
      { name: "dcc_execute", arguments: { code: spinUntilStopped(key), timeout_secs: 60 } },
      { timeout: 60_000 + generousMs, ...(signal === undefined ? {} : { signal }) },
    );
    call.catch(() => {});
    expect(await waitUntil(() => count(key) > 10)).toBe(true);
  }

  // Found by this suite: the script ran on to its own timeout or limit. Fixed in 44c0716.
  it("closing the transport (a dropped connection) cancels the running script", async () => {
    const leaving = await harness.connect(revision);
    await startSpinning(leaving, `closed ${revision}`);
    await leaving.close();
    await expectStopped(`closed ${revision}`);
  });

  // 2026-07-28 has no sessions to end.
  if (revision === "2025-11-25") {
    it("ending the session (HTTP DELETE) cancels the running script", async () => {
      const leaving = await harness.connect(revision);
      await startSpinning(leaving, "deleted");
      await leaving.terminateSession();
      await expectStopped("deleted");
      await leaving.close();
    });
  }

  // On 2025-11-25 the client sends notifications/cancelled; on 2026-07-28 it closes the stream.
  it("an aborted request stops the script", async () => {
    const caller = await harness.connect(revision);
    const abort = new AbortController();
    await startSpinning(caller, `aborted ${revision}`, abort.signal);
    abort.abort();
    await expectStopped(`aborted ${revision}`);
  });
});
