import { mkdtemp, readdir, readFile, rm, stat, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { materializeScript } from "./materialize-script.ts";
import { ScriptExpiredError } from "./script-expired-error.ts";
import { ScriptOptionsError } from "./script-options-error.ts";
import { ScriptStore } from "./script-store.ts";
import { UnsupportedParameterTypeError } from "./unsupported-parameter-type-error.ts";

const typed = "function main(scale: number, copies: integer = 1) {\n  return scale * copies;\n}\n";
let root: string;
let clock: number;
let store: ScriptStore;

beforeEach(async () => {
  root = await mkdtemp(path.join(tmpdir(), "dcc-scripts-"));
  clock = Date.UTC(2026, 0, 2, 3, 4, 5, 678);
  store = new ScriptStore({ root, now: () => clock });
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

/** Every file below `directory`, relative to it. */
async function filesUnder(directory: string): Promise<string[]> {
  const entries = await readdir(directory, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(directory, path.join(entry.parentPath, entry.name)))
    .sort();
}

describe("ScriptStore.materialize", () => {
  it("writes the script and a sidecar under <root>/<dcc>/temp/<instance>/<session>", async () => {
    const script = await store.materialize(typed, {
      dccType: "maya",
      instanceId: "maya-local",
      sessionId: "task-42",
      toolCallId: "call-1",
      correlationId: "corr-1",
    });
    const directory = path.join(root, "maya", "temp", "maya-local", "task-42");
    expect(path.dirname(script.filePath)).toBe(directory);
    expect(path.basename(script.filePath)).toMatch(/^script_[0-9a-f]{32}_[0-9a-f]{12}\.ts$/);
    expect(await readFile(script.filePath, "utf8")).toBe(typed);
    expect(script).toMatchObject({
      bytes: Buffer.byteLength(typed),
      reused: false,
      createdAt: "2026-01-02T03:04:05Z",
      expiresAt: null,
      ttlSecs: null,
      dccType: "maya",
      suffix: ".ts",
      toolCallId: "call-1",
      correlationId: "corr-1",
    });
    expect(script.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(script.fileRef).toEqual({
      uri: `file://${script.filePath}`,
      digest: `sha256:${script.sha256}`,
      sizeBytes: script.bytes,
      displayName: path.basename(script.filePath),
    });
    expect(script.parametersSchema).toMatchObject({
      properties: { scale: { type: "number" }, copies: { type: "integer", default: 1 } },
      required: ["scale"],
    });
    const sidecarText = await readFile(`${script.filePath}.meta.json`, "utf8");
    const sidecar = JSON.parse(sidecarText);
    expect(Object.keys(sidecar)).toEqual(Object.keys(sidecar).sort());
    expect(sidecarText).not.toContain("\n");
    expect(sidecar.reused).toBeUndefined();
    expect(sidecar.parametersSchema).toEqual(script.parametersSchema);
    expect(sidecar.sha256).toBe(script.sha256);
    // Atomic writes leave no temporary files behind.
    expect(await filesUnder(directory)).toEqual(
      [path.basename(script.filePath), `${path.basename(script.filePath)}.meta.json`].sort(),
    );
  });

  it("sanitises every path segment and the suffix", async () => {
    const script = await store.materialize("return 1", {
      dccType: "maya/../../prod",
      instanceId: "...",
      sessionId: "a:b\\c",
      suffix: "../ps1",
    });
    expect(path.relative(root, script.filePath).split(path.sep).slice(0, 4)).toEqual([
      "maya_.._.._prod",
      "temp",
      "unknown",
      "a_b_c",
    ]);
    expect(script.filePath.endsWith("._ps1")).toBe(true);
    expect(script.parametersSchema).toBeNull();
  });

  it("names a reused script by key and sha, or by the full sha without a key", async () => {
    const keyed = await store.materialize(typed, {
      dccType: "maya",
      reuse: true,
      reuseKey: "scale assets",
    });
    expect(path.basename(keyed.filePath)).toBe(`scale_assets_${keyed.sha256.slice(0, 12)}.ts`);
    const unkeyed = await store.materialize(typed, { dccType: "maya", reuse: true });
    expect(path.basename(unkeyed.filePath)).toBe(`${unkeyed.sha256}.ts`);
  });

  it("returns the same file with reused: true without rewriting it", async () => {
    const options = { dccType: "maya", sessionId: "s", reuse: true, reuseKey: "k", ttlSecs: 600 };
    const first = await store.materialize(typed, { ...options, toolCallId: "first" });
    const before = await stat(first.filePath);
    const sidecarBefore = await readFile(`${first.filePath}.meta.json`, "utf8");
    clock += 5_000;
    const second = await store.materialize(typed, { ...options, toolCallId: "second" });
    expect(second.reused).toBe(true);
    expect(second.filePath).toBe(first.filePath);
    expect(second.createdAt).toBe(first.createdAt);
    expect(second.toolCallId).toBe("first");
    expect(second.expiresAt).toBe(first.expiresAt);
    expect((await stat(first.filePath)).mtimeMs).toBe(before.mtimeMs);
    expect((await stat(first.filePath)).ino).toBe(before.ino);
    expect(await readFile(`${first.filePath}.meta.json`, "utf8")).toBe(sidecarBefore);
  });

  it("never pins content to a key alone", async () => {
    const options = { dccType: "maya", reuse: true, reuseKey: "k" };
    const first = await store.materialize(typed, options);
    const other = await store.materialize(`${typed}// v2\n`, options);
    expect(other.reused).toBe(false);
    expect(other.filePath).not.toBe(first.filePath);
  });

  it("writes a new file each time without reuse", async () => {
    const first = await store.materialize(typed, { dccType: "maya" });
    const second = await store.materialize(typed, { dccType: "maya" });
    expect(second.filePath).not.toBe(first.filePath);
    expect(second.reused).toBe(false);
  });

  it("materializes one reuse key concurrently into exactly one file", async () => {
    const options = { dccType: "maya", sessionId: "s", reuse: true, reuseKey: "same" };
    const results = await Promise.all(
      Array.from({ length: 12 }, () => store.materialize(typed, options)),
    );
    expect(new Set(results.map((result) => result.filePath)).size).toBe(1);
    expect(results.filter((result) => !result.reused)).toHaveLength(1);
    const directory = path.dirname(results[0]?.filePath as string);
    expect(await filesUnder(directory)).toHaveLength(2);
  });

  it("keeps one file when separate stores race on one reuse key", async () => {
    const options = { dccType: "maya", sessionId: "s", reuse: true, reuseKey: "same" };
    const stores = Array.from({ length: 6 }, () => new ScriptStore({ root }));
    const results = await Promise.all(stores.map((each) => each.materialize(typed, options)));
    expect(new Set(results.map((result) => result.filePath)).size).toBe(1);
    expect(await filesUnder(path.join(root, "maya"))).toHaveLength(2);
  });

  it("accepts only a positive integer ttlSecs", async () => {
    for (const ttlSecs of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, "10"]) {
      await expect(
        store.materialize(typed, { dccType: "maya", ttlSecs: ttlSecs as number }),
      ).rejects.toThrow(ScriptOptionsError);
    }
    await expect(store.materialize(typed, { dccType: "maya", ttlSecs: 0 })).rejects.toThrow(
      "ttlSecs must be a positive integer",
    );
  });

  it("refuses a script whose main has an unsupported type and writes nothing", async () => {
    await expect(
      store.materialize("function main(when: Date) {}", { dccType: "maya" }),
    ).rejects.toThrow(UnsupportedParameterTypeError);
    expect(await filesUnder(root)).toEqual([]);
  });

  it("is created with an absolute root, and refuses an empty root", async () => {
    const created = new ScriptStore({ root: path.relative(process.cwd(), root) });
    expect(created.root).toBe(root);
    expect(() => new ScriptStore({ root: "" })).toThrow("root must be a non-empty path");
  });

  it("works through the one-call materializeScript", async () => {
    const script = await materializeScript(typed, { root, dccType: "maya", ttlSecs: 60 });
    expect(script.ttlSecs).toBe(60);
    expect(await readFile(script.filePath, "utf8")).toBe(typed);
  });
});

describe("ScriptStore TTL", () => {
  it("sets expiresAt from the clock and refuses the file once it has passed", async () => {
    const script = await store.materialize(typed, { dccType: "maya", ttlSecs: 90 });
    expect(script.expiresAt).toBe("2026-01-02T03:05:35Z");
    clock += 89_000;
    await expect(store.resolve(script.filePath)).resolves.toMatchObject({ sha256: script.sha256 });
    clock += 1_000;
    await expect(store.resolve(script.filePath)).rejects.toThrow(ScriptExpiredError);
  });

  it("rewrites an expired reusable script instead of reusing it", async () => {
    const options = { dccType: "maya", reuse: true, reuseKey: "k", ttlSecs: 10 };
    const first = await store.materialize(typed, options);
    clock += 60_000;
    const second = await store.materialize(typed, options);
    expect(second.reused).toBe(false);
    expect(second.filePath).toBe(first.filePath);
    expect(second.createdAt).not.toBe(first.createdAt);
  });

  it("cleans up expired script and sidecar pairs only", async () => {
    const short = await store.materialize(typed, { dccType: "maya", ttlSecs: 10 });
    const long = await store.materialize(typed, { dccType: "maya", ttlSecs: 1000 });
    const forever = await store.materialize(typed, { dccType: "blender" });
    const stray = path.join(path.dirname(short.filePath), "notes.txt");
    await writeFile(stray, "keep me");
    expect(await store.cleanupExpired()).toEqual({ removed: [] });
    clock += 11_000;
    expect(await store.cleanupExpired()).toEqual({ removed: [short.filePath] });
    const left = await filesUnder(root);
    expect(left).not.toContain(path.relative(root, short.filePath));
    expect(left).not.toContain(path.relative(root, `${short.filePath}.meta.json`));
    for (const kept of [long.filePath, `${long.filePath}.meta.json`, forever.filePath, stray]) {
      expect(left).toContain(path.relative(root, kept));
    }
  });

  it("does not follow a symlinked directory while cleaning up", async () => {
    const outside = await mkdtemp(path.join(tmpdir(), "dcc-outside-"));
    try {
      const victim = await materializeScript(typed, {
        root: outside,
        dccType: "maya",
        ttlSecs: 1,
        now: () => clock,
      });
      await symlink(outside, path.join(root, "link"));
      clock += 10_000;
      expect(await store.cleanupExpired()).toEqual({ removed: [] });
      expect(await readFile(victim.filePath, "utf8")).toBe(typed);
    } finally {
      await rm(outside, { recursive: true, force: true });
    }
  });
});
