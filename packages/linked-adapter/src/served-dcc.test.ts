// A DCC written the kit's way end to end: `serve` on the Python side (a data folder, a
// transaction on its undo, an image command), `prepareLinkedLaunch` and `transaction: true` here.
import { mkdtemp, readFile, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CommandError, HostImage } from "@dcc/executor";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { python } from "./__fixtures__/python.ts";
import { createLinkedAdapter, type LinkedAdapter } from "./create-linked-adapter.ts";
import { readCommandSpecs } from "./linked-command-spec.ts";
import { prepareLinkedLaunch } from "./prepare-linked-launch.ts";

const specs = readCommandSpecs(new URL("./__fixtures__/served-commands.json", import.meta.url));
let folder = "";
let adapter: LinkedAdapter | undefined;

beforeEach(async () => {
  folder = await realpath(await mkdtemp(join(tmpdir(), "kit-served-")));
});

afterEach(async () => {
  await adapter?.close();
  adapter = undefined;
  await rm(folder, { recursive: true, force: true });
});

async function started(): Promise<{
  adapter: LinkedAdapter;
  run(name: string, args?: unknown): Promise<unknown>;
}> {
  const served = createLinkedAdapter({
    dccName: "shop",
    launch: () =>
      prepareLinkedLaunch({
        displayName: "Shop",
        executable: python,
        args: ["-S", new URL("./__fixtures__/served_host.py", import.meta.url)],
        dataDir: join(folder, "data"),
      }),
    specs,
    transaction: true,
  });
  adapter = served;
  await served.start({ signal: new AbortController().signal, reportHost: () => undefined });
  const commands = new Map(served.commands().map((command) => [command.name, command]));
  const run = async (name: string, args?: unknown): Promise<unknown> =>
    commands.get(name)?.handler(args, { signal: new AbortController().signal, command: name });
  return { adapter: served, run };
}

async function failure(promise: Promise<unknown>): Promise<CommandError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(CommandError);
  return error as CommandError;
}

const signal = new AbortController().signal;

describe("a DCC started with serve() and prepareLinkedLaunch()", () => {
  it("commits one undo step that lists the files written, relative to the data folder", async () => {
    const { adapter, run } = await started();
    const transaction = await adapter.beginTransaction?.({ label: "first", signal });
    expect(await run("shop.add", { name: "apple" })).toEqual(["apple"]);
    expect(await run("shop.save", { path: "shelves/../shelf.json" })).toBe("shelf.json");
    expect(await transaction?.commit()).toEqual({
      rolledBack: false,
      undoStep: "first",
      filesWritten: ["shelf.json"],
    });
    expect(JSON.parse(await readFile(join(folder, "data", "shelf.json"), "utf8"))).toEqual([
      "apple",
    ]);
  });

  it("rolls back through the DCC's undo, and an empty script has nothing to undo", async () => {
    const { adapter, run } = await started();
    await run("shop.add", { name: "kept" });
    const failed = await adapter.beginTransaction?.({ label: "failed", signal });
    await run("shop.add", { name: "undone" });
    expect(await failed?.rollback()).toEqual({ rolledBack: true });
    const empty = await adapter.beginTransaction?.({ label: "empty", signal });
    expect(await empty?.commit()).toMatchObject({ rolledBack: false, reason: "nothing_to_undo" });
    expect(await run("shop.add", { name: "next" })).toEqual(["kept", "next"]);
  });

  it("answers a path outside the data folder with POLICY, and the transaction methods are no commands", async () => {
    const { adapter, run } = await started();
    const refused = await failure(run("shop.save", { path: "../outside.json" }));
    expect(refused.code).toBe("POLICY");
    expect(refused.data).toEqual({ rule: "data-folder", argument: "path" });
    expect(adapter.commands().map((command) => command.name)).toEqual(specs.map((s) => s.name));
  });

  it("returns an image command's PNG as a HostImage, and refuses an answer that is none", async () => {
    const { adapter, run } = await started();
    // Read-only as marked, but never on the lane, whose answers would stay JSON.
    const picture = adapter.commands().find((command) => command.name === "shop.picture");
    expect(picture?.readOnly).toBe(true);
    expect(adapter.dispatchLane?.()).toBeUndefined();
    const image = await run("shop.picture", { width: 3 });
    expect(HostImage.is(image)).toBe(true);
    expect(image).toMatchObject({ mimeType: "image/png", width: 3, height: 1 });
    expect([...(image as HostImage).data.slice(1, 4)]).toEqual([0x50, 0x4e, 0x47]);
    const fake = await failure(run("shop.fake_picture"));
    expect(fake.code).toBe("INVALID_IMAGE");
    expect(fake.completion).toBe("complete");
    expect(fake.message).toContain("shop.fake_picture answered no image");
  });
});
