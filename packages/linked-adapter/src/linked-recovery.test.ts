import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { CommandError, type DccTransaction } from "@dcc/executor";
import { linkPythonPath } from "@dcc/link";
import { afterEach, describe, expect, it } from "vitest";
import { kitHostScript, kitSpecsFile, python } from "./__fixtures__/python.ts";
import { processAlive, waitUntil } from "./__fixtures__/wait.ts";
import {
  createLinkedAdapter,
  type LinkedAdapter,
  type LinkedAdapterOptions,
} from "./create-linked-adapter.ts";
import { readCommandSpecs } from "./linked-command-spec.ts";
import type { LinkedRecoveryCopy } from "./linked-recovery.ts";

const open: LinkedAdapter[] = [];
const folders: string[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((adapter) => adapter.close()));
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

/** A kit DCC whose one-value state is its scene, with transactions and a recovery copy. */
async function start(
  minIntervalMs: number,
  options: Partial<LinkedAdapterOptions> = {},
): Promise<{ adapter: LinkedAdapter; saves(): string[] }> {
  const folder = mkdtempSync(join(tmpdir(), "dcc-kit-recovery-"));
  folders.push(folder);
  const adapter = createLinkedAdapter({
    dccName: "kit",
    displayName: "KitDCC",
    launch: () => ({
      command: python,
      args: ["-S", kitHostScript],
      env: { PYTHONPATH: linkPythonPath(), KIT_RECOVERY_DIR: folder },
      sandboxPaths: { readOnly: [dirname(kitHostScript)], readWrite: [folder] },
    }),
    transaction: { begin: "tx.begin", end: "tx.end" },
    recovery: { save: "rec.save", open: "rec.open", minIntervalMs },
    specs: readCommandSpecs(kitSpecsFile),
    ...options,
  });
  open.push(adapter);
  await adapter.start({ signal: new AbortController().signal, reportHost: () => undefined });
  const log = join(folder, "saves.log");
  const saves = () => (existsSync(log) ? readFileSync(log, "utf8").trim().split("\n") : []);
  return { adapter, saves };
}

/** One script: a transaction around setting the state, committed or rolled back. */
async function script(
  adapter: LinkedAdapter,
  label: string,
  value: number,
  end: "commit" | "rollback",
): Promise<void> {
  const signal = new AbortController().signal;
  const transaction = (await adapter.beginTransaction?.({ label, signal })) as DccTransaction;
  await adapter.call("state.set", { value });
  await transaction[end]();
  // The DCC answers in order: once this returns, a save sent at the end has been made.
  await adapter.call("state.get");
}

/** Kills the DCC and waits for the next one. */
async function kill(adapter: LinkedAdapter): Promise<void> {
  const pid = adapter.pid as number;
  const launches = adapter.launches;
  process.kill(pid, "SIGKILL");
  await waitUntil(() => adapter.launches > launches && !processAlive(pid), "a new DCC");
}

/** The notice the first command after a restart fails with. */
async function notice(adapter: LinkedAdapter): Promise<string> {
  const error = await adapter.call("state.get").catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(CommandError);
  expect(error).toMatchObject({ code: "HOST_GONE", completion: "not_started" });
  return (error as CommandError).message;
}

describe("a linked adapter's recovery copy", () => {
  it("is saved after committed changes only, at most once per interval, and restored after a kill", async () => {
    const { adapter, saves } = await start(600_000);
    await script(adapter, "dcc_execute: one", 5, "commit");
    expect(saves()).toEqual(["5"]);
    const copy = adapter.recoveryCopy;
    expect(copy).toMatchObject({ label: "dcc_execute: one", launch: 1 });
    // Within the interval: owed, not saved; a rolled-back script changes nothing.
    await script(adapter, "dcc_execute: two", 6, "commit");
    await script(adapter, "dcc_execute: three", 7, "rollback");
    expect(saves()).toEqual(["5"]);
    await kill(adapter);
    const clock = (copy as LinkedRecoveryCopy).savedAt.toISOString().slice(11, 19);
    expect(await notice(adapter)).toContain(
      `since the last command, KitDCC exited, and it was restarted with the scene restored from its recovery copy saved at ${clock} UTC after "dcc_execute: one"; the changes of 1 later script were not in it yet and are lost`,
    );
    expect(await adapter.call("state.get")).toBe(5);
  });

  it("saves a change owed by the interval once it has passed", async () => {
    const { adapter, saves } = await start(1000);
    await script(adapter, "dcc_execute: one", 1, "commit");
    await script(adapter, "dcc_execute: two", 2, "commit");
    await waitUntil(() => saves().length === 2, "the owed save");
    expect(saves()).toEqual(["1", "2"]);
    expect(adapter.recoveryCopy?.label).toBe("dcc_execute: two");
  });

  it("says there was no copy when nothing was committed", async () => {
    const { adapter } = await start(0);
    await adapter.call("state.set", { value: 9 }); // outside any script's transaction
    await kill(adapter);
    expect(await notice(adapter)).toContain(
      "restarted with its factory start-up scene: there was no recovery copy (no script had changed the scene since KitDCC started, so there was nothing to restore)",
    );
    expect(await adapter.call("state.get")).toBe(0);
  });

  it("tells a caller whose command would not stop that the DCC was ended, what came back, and where long work belongs", async () => {
    const { adapter } = await start(0, {
      callTimeoutMs: 3000,
      graceMs: 200,
      terminateGraceMs: 500,
    });
    await script(adapter, "dcc_execute: kept", 3, "commit");
    await waitUntil(() => adapter.recoveryCopy !== undefined, "the recovery copy");
    const [hang] = adapter.commands().filter((entry) => entry.name === "kit.hang");
    const signal = new AbortController().signal;
    const error = await (async () => hang?.handler({}, { signal, command: "kit.hang" }))().catch(
      (caught: unknown) => caught,
    );
    expect(error).toMatchObject({ code: "LINK_TIMEOUT", completion: "unknown" });
    const message = (error as CommandError).message;
    expect(message).toContain(
      "KitDCC was restarted with the scene restored from its recovery copy saved at",
    );
    expect(message).toContain('after "dcc_execute: kept"');
    expect(message).toContain(
      "Long work belongs in an async job: async: true with a larger timeout_secs.",
    );
    expect(await adapter.call("state.get")).toBe(3);
  });
});
