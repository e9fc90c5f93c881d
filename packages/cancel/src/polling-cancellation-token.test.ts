import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { CancellationManager } from "./cancellation-manager.ts";
import { PollTimeoutError } from "./poll-timeout-error.ts";
import { PollingCancellationToken } from "./polling-cancellation-token.ts";
import { StageCancelledError } from "./stage-cancelled-error.ts";

/** Resolves once `condition` holds, checking every few ms; fails after `limitMs`. */
async function eventually(condition: () => boolean, limitMs = 15_000): Promise<void> {
  const deadline = Date.now() + limitMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${limitMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe("PollingCancellationToken against a real SQLite file", () => {
  let directory: string;
  let backend: Database.Database;
  let reader: Database.Database;
  const tokens: PollingCancellationToken[] = [];

  beforeEach(() => {
    directory = mkdtempSync(join(tmpdir(), "dcc-cancel-"));
    const file = join(directory, "scans.db");
    // The backend owns the scans table; the run reads it over its own connection.
    backend = new Database(file);
    backend.exec("CREATE TABLE scans (id TEXT PRIMARY KEY, cancelled INTEGER NOT NULL)");
    backend.prepare("INSERT INTO scans VALUES (?, 0)").run("scan-1");
    reader = new Database(file, { readonly: true });
  });

  afterEach(() => {
    for (const token of tokens.splice(0)) token.close();
    reader.close();
    backend.close();
    rmSync(directory, { recursive: true, force: true });
  });

  function scanToken(onError: (error: unknown) => void = vi.fn()): PollingCancellationToken {
    const query = reader.prepare("SELECT cancelled FROM scans WHERE id = ?").pluck();
    const token = new PollingCancellationToken({
      poll: async () => query.get("scan-1") === 1,
      intervalMs: 10,
      timeoutMs: 2000,
      onError,
    });
    tokens.push(token);
    return token;
  }

  it("notices the backend's cancellation and caches it", async () => {
    const token = scanToken();
    await token.refresh();
    expect(token.isCancelled()).toBe(false);
    backend.prepare("UPDATE scans SET cancelled = 1 WHERE id = ?").run("scan-1");
    await eventually(() => token.isCancelled());
    // Cancellation is sticky even if the row flips back.
    backend.prepare("UPDATE scans SET cancelled = 0 WHERE id = ?").run("scan-1");
    await expect(token.refresh()).resolves.toBe(true);
    expect(token.isCancelled()).toBe(true);
  });

  it("drives a CancellationManager checkpoint", async () => {
    const manager = new CancellationManager({ token: scanToken() });
    manager.checkpoint({ stage: "plan" });
    backend.prepare("UPDATE scans SET cancelled = 1").run();
    await eventually(() => manager.isCancelled());
    expect(() => manager.checkpoint({ stage: "plan" })).toThrow(StageCancelledError);
  });

  it("reports a failing source and keeps the cached answer", async () => {
    const onError = vi.fn();
    const token = scanToken(onError);
    await token.refresh();
    backend.exec("DROP TABLE scans");
    await eventually(() => onError.mock.calls.length > 0);
    expect(String(onError.mock.calls[0]?.[0])).toMatch(/no such table|schema/);
    expect(token.isCancelled()).toBe(false);
    expect(token.lastError).toBeInstanceOf(Error);
    await expect(token.refresh()).rejects.toThrow();
  });
});

describe("PollingCancellationToken", () => {
  it("bounds every poll with a timeout and aborts the slow source", async () => {
    let seen: AbortSignal | undefined;
    const token = new PollingCancellationToken({
      poll: (signal) => {
        seen = signal;
        return new Promise<boolean>(() => {});
      },
      timeoutMs: 20,
      onError: () => {},
      autoStart: false,
    });
    const error = await token.refresh().then(
      () => undefined,
      (failure: unknown) => failure,
    );
    expect(error).toBeInstanceOf(PollTimeoutError);
    expect((error as PollTimeoutError).code).toBe("POLL_TIMEOUT");
    expect(seen?.aborted).toBe(true);
    expect(token.isCancelled()).toBe(false);
  });

  it("joins a poll in flight instead of starting another", async () => {
    let calls = 0;
    let answer: (value: boolean) => void = () => {};
    const token = new PollingCancellationToken({
      poll: () => {
        calls++;
        return new Promise<boolean>((resolve) => {
          answer = resolve;
        });
      },
      onError: () => {},
      autoStart: false,
    });
    const first = token.refresh();
    const second = token.refresh();
    answer(true);
    await expect(Promise.all([first, second])).resolves.toEqual([true, true]);
    expect(calls).toBe(1);
  });

  it("stops polling after close", async () => {
    let calls = 0;
    const token = new PollingCancellationToken({
      poll: () => {
        calls++;
        return false;
      },
      intervalMs: 5,
      onError: () => {},
    });
    await eventually(() => calls >= 2);
    token.close();
    const after = calls;
    // A witness polling at the same interval: once it has polled several more times, the closed
    // token had as many chances to poll again, however slow the machine.
    let witnessCalls = 0;
    const witness = new PollingCancellationToken({
      poll: () => {
        witnessCalls++;
        return false;
      },
      intervalMs: 5,
      onError: () => {},
    });
    try {
      await eventually(() => witnessCalls >= 5);
    } finally {
      witness.close();
    }
    expect(calls).toBeLessThanOrEqual(after + 1);
  });
});
