import { dirname } from "node:path";
import { CommandError, type DccHostStatus } from "@dcc/executor";
import { linkPythonPath } from "@dcc/link";
import { afterEach, describe, expect, it } from "vitest";
import { kitHostScript, kitSpecsFile, python } from "./__fixtures__/python.ts";
import { processAlive, waitUntil } from "./__fixtures__/wait.ts";
import { CommandSpecError } from "./command-spec-error.ts";
import {
  createLinkedAdapter,
  type LinkedAdapter,
  type LinkedAdapterOptions,
} from "./create-linked-adapter.ts";
import { readCommandSpecs } from "./linked-command-spec.ts";
import type { LinkedHostEvent } from "./linked-connection.ts";

const specs = readCommandSpecs(kitSpecsFile);
const open: LinkedAdapter[] = [];

afterEach(async () => {
  await Promise.all(open.splice(0).map((adapter) => adapter.close()));
});

interface Started {
  adapter: LinkedAdapter;
  statuses: DccHostStatus[];
  events: LinkedHostEvent[];
  run(name: string, args?: unknown, signal?: AbortSignal): Promise<unknown>;
}

/** The kit host's launch. In the OS sandbox (on by default where it runs) its script must be visible. */
const kitLaunch = {
  command: python,
  args: ["-S", kitHostScript],
  env: { PYTHONPATH: linkPythonPath() },
  sandboxPaths: { readOnly: [dirname(kitHostScript)] },
};

async function start(options: Partial<LinkedAdapterOptions> = {}): Promise<Started> {
  const adapter = createLinkedAdapter({
    dccName: "kit",
    displayName: "KitDCC",
    launch: () => kitLaunch,
    specs,
    readyTimeoutMs: 60_000,
    ...options,
  });
  open.push(adapter);
  const statuses: DccHostStatus[] = [];
  const events: LinkedHostEvent[] = [];
  adapter.onEvent((event) => events.push(event));
  await adapter.start({
    signal: new AbortController().signal,
    reportHost: (status) => statuses.push(status),
  });
  const commands = new Map(adapter.commands().map((command) => [command.name, command]));
  const run = (name: string, args?: unknown, signal = new AbortController().signal) => {
    const command = commands.get(name);
    if (command === undefined) throw new Error(`no command ${name}`);
    return (async () => command.handler(args, { signal, command: name }))();
  };
  return { adapter, statuses, events, run };
}

async function failure(promise: Promise<unknown>): Promise<CommandError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(CommandError);
  return error as CommandError;
}

describe("createLinkedAdapter over a real Python host", () => {
  it("serves each spec as a command, with its record in the catalog", async () => {
    // Outside the sandbox, whose PID namespace would give the host another process id.
    const { adapter, run } = await start({ launch: () => ({ ...kitLaunch, sandbox: "off" }) });
    expect(adapter.commands().map((command) => command.name)).toEqual(specs.map((s) => s.name));
    expect(await run("kit.echo", { value: [1, "a"] })).toEqual({ params: { value: [1, "a"] } });
    expect(await run("kit.pid")).toBe(adapter.pid);
    const record = adapter.catalog().get("kit.echo");
    expect(record?.["signature"]).toBe(specs[0]?.signature);
    expect(record?.["args"]).toEqual(specs[0]?.args);
  });

  it("sends a command with no args as {} (the raw link would send null)", async () => {
    const { adapter, run } = await start();
    expect(await run("kit.echo")).toEqual({ params: {} });
    expect(await run("kit.echo", null)).toEqual({ params: {} });
    expect(await adapter.call("raw.params")).toEqual({ params: {} });
    const error = await failure(run("kit.echo", [1]));
    expect(error.code).toBe("INVALID_ARGS");
    expect(error.message).toContain("kit.echo takes one object of keyword arguments");
  });

  it("keeps the host's code, message and data, and checks args on the host against the spec", async () => {
    const { run } = await start();
    const refused = await failure(run("kit.refuse"));
    expect(refused.code).toBe("REFUSED");
    expect(refused.message).toBe("kit.refuse always refuses");
    expect(refused.data).toEqual({ rule: "test" });
    expect(refused.completion).toBe("complete");
    const invalid = await failure(run("kit.echo", { colour: 1 }));
    expect(invalid.code).toBe("INVALID_ARGS");
    expect(invalid.message).toContain("args.colour is not an argument of kit.echo");
  });

  it("cancels a command that checks for a cancel, and the host goes on", async () => {
    const { adapter, run } = await start();
    const controller = new AbortController();
    const pending = run("kit.wait", {}, controller.signal);
    // Cancelled once it runs, so the cancel reaches the handler's checkpoint on the host.
    await waitUntil(() => adapter.output.includes("WAITING"), "kit.wait runs");
    controller.abort();
    const error = await failure(pending);
    expect(error.code).toBe("CANCELLED");
    // The host answered that the handler stopped at its checkpoint.
    expect(error.completion).toBe("complete");
    expect(adapter.launches).toBe(1);
    expect(await run("kit.echo", { value: 1 })).toEqual({ params: { value: 1 } });
  });

  it("tells the next command once that the host was restarted after a SIGKILL", async () => {
    const { adapter, run, events } = await start({ restartNote: "with an empty scene" });
    const first = adapter.pid as number;
    process.kill(first, "SIGKILL");
    await waitUntil(() => events.some((event) => event.type === "restart"), "the host restarted");
    expect(events[0]).toEqual({ type: "exit", reason: "KitDCC exited" });
    expect(events[1]).toEqual({ type: "restart", launches: 2 });
    const notice = await failure(run("kit.echo", { value: 1 }));
    expect(notice.code).toBe("HOST_GONE");
    expect(notice.completion).toBe("not_started");
    expect(notice.message).toBe(
      "kit.echo did not run: since the last command, KitDCC exited, and it was restarted with an empty scene. Run it again to go on.",
    );
    expect(await run("kit.echo", { value: 2 })).toEqual({ params: { value: 2 } });
    expect(adapter.pid).not.toBe(first);
    expect(processAlive(first)).toBe(false);
  });

  it("ends a host whose call will not stop: completion unknown, then a new host", async () => {
    const { adapter, run, events } = await start({
      callTimeoutMs: 5000,
      graceMs: 200,
      terminateGraceMs: 500,
    });
    const first = adapter.pid as number;
    const error = await failure(run("kit.hang"));
    expect(error.code).toBe("LINK_TIMEOUT");
    expect(error.completion).toBe("unknown");
    expect(error.message).toContain("KitDCC is being restarted");
    expect(processAlive(first)).toBe(false);
    // The caller was told, so the next command runs on the new host without a notice.
    expect(await run("kit.pid")).not.toBe(first);
    expect(events.map((event) => event.type)).toEqual(["exit", "restart"]);
    // The link's disconnect or the call's failure, whichever is seen first, names the exit.
    expect(events[0]?.type === "exit" && events[0].reason).toMatch(
      /^KitDCC (exited|was ended because kit\.hang did not stop in time \(long work belongs in an async job: async: true with a larger timeout_secs\))$/,
    );
  });

  it("tells the next command why the host was ended for a call whose caller stopped waiting", async () => {
    const { adapter, run, events } = await start({ graceMs: 200, terminateGraceMs: 500 });
    const first = adapter.pid as number;
    const controller = new AbortController();
    const pending = failure(run("kit.hang", {}, controller.signal));
    // Cancelled once it runs: a cancel before it started would leave the host as it was.
    await waitUntil(() => adapter.output.includes("HANGING"), "kit.hang runs");
    controller.abort();
    expect((await pending).completion).toBe("unknown");
    await waitUntil(() => events.some((event) => event.type === "restart"), "the host restarted");
    const notice = await failure(run("kit.pid"));
    expect(notice.message).toContain(
      "since the last command, KitDCC was ended because kit.hang did not stop in time (long work belongs in an async job: async: true with a larger timeout_secs), and it was restarted",
    );
    expect(await run("kit.pid")).not.toBe(first);
  });

  it("backs off a crash loop and reports the host unavailable", async () => {
    const { adapter, statuses, events } = await start({
      crashLoop: { maxCrashes: 1, windowMs: 600_000, retryDelaysMs: [600_000] },
    });
    process.kill(adapter.pid as number, "SIGKILL");
    await waitUntil(() => events.some((event) => event.type === "restart"), "the first restart");
    process.kill(adapter.pid as number, "SIGKILL");
    await waitUntil(
      () => statuses.some((status) => status.state === "unavailable"),
      "the host was reported unavailable",
    );
    // The first crash was a restart (callers waited for it); the second one a crash loop.
    expect(statuses[0]).toEqual({ state: "restarting", reason: "KitDCC exited; restarting" });
    expect(statuses[1]).toEqual({ state: "ready" });
    expect(statuses[2]).toEqual({
      state: "unavailable",
      reason: "KitDCC exited 2 times within 600 s; trying again in 600 s",
    });
    expect(events.at(-1)).toEqual({
      type: "unavailable",
      reason: "KitDCC exited 2 times within 600 s; trying again in 600 s",
      retryInMs: 600_000,
    });
    expect(adapter.dispatchLane?.()).toBeUndefined();
  });

  it("closes during a stuck call: the call fails HOST_GONE and nothing is left", async () => {
    const { adapter, run } = await start({ callTimeoutMs: 600_000, terminateGraceMs: 1000 });
    const pid = adapter.pid as number;
    const pending = failure(run("kit.hang"));
    // Closed once the call runs: a close before it was sent fails it with SHUTTING_DOWN instead.
    await waitUntil(() => adapter.output.includes("HANGING"), "kit.hang runs");
    await adapter.close();
    const error = await pending;
    expect(error.code).toBe("HOST_GONE");
    expect(error.message).toContain("The server is shutting down.");
    expect(processAlive(pid)).toBe(false);
    expect(adapter.sessionDir === undefined || !processAlive(pid)).toBe(true);
  });

  it("offers the specs marked lane on a dispatch lane", async () => {
    const { adapter } = await start();
    const lane = adapter.dispatchLane?.();
    expect(lane?.commands).toEqual(["kit.echo"]);
    expect(lane?.key).toBe(`${adapter.pid}/1`);
  });

  it("fails a command before start with HOST_GONE, not_started", async () => {
    const adapter = createLinkedAdapter({
      dccName: "kit",
      launch: () => ({ command: python }),
      specs,
    });
    const error = await failure(adapter.call("kit.pid"));
    expect(error.code).toBe("HOST_GONE");
    expect(error.completion).toBe("not_started");
  });

  it("passes its own error class through createError", async () => {
    class KitError extends CommandError {
      override readonly name: string = "KitError";
    }
    const { run } = await start({ createError: (init) => new KitError(init) });
    expect(await run("kit.refuse").catch((error: unknown) => error)).toBeInstanceOf(KitError);
  });

  it("needs a launch or an attach", () => {
    expect(() => createLinkedAdapter({ dccName: "kit" })).toThrow(/needs launch or attach/);
  });
});

describe("createLinkedAdapter's own commands beside the specs", () => {
  const own = {
    name: "kit.snapshot",
    signature: "kit.snapshot(): Image",
    description: "A picture of the viewport",
    argsSchema: { type: "object", properties: {} },
    handler: () => null,
  };

  it("refuses at once a command of its own with a spec's name, naming both", () => {
    let caught: unknown;
    try {
      createLinkedAdapter({
        dccName: "kit",
        launch: () => ({ command: python }),
        specs,
        commands: () => [{ ...own, name: "kit.pid" }],
      });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(CommandSpecError);
    expect((caught as CommandSpecError).message).toContain(
      'createLinkedAdapter (kit): "kit.pid" is both a command spec and one of commands',
    );
    expect((caught as CommandSpecError).index).toBe(specs.findIndex((s) => s.name === "kit.pid"));
  });

  it("finds a command of its own in the default catalog, with no spec for it", () => {
    const adapter = createLinkedAdapter({
      dccName: "kit",
      launch: () => ({ command: python }),
      specs,
      commands: () => [own],
    });
    expect(adapter.catalog().search("viewport picture")[0]).toMatchObject({
      name: "kit.snapshot",
      signature: own.signature,
      args: own.argsSchema,
    });
    expect(adapter.commands().map((command) => command.name)).toContain("kit.snapshot");
  });
});
