import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { MaterializedScript } from "./materialized-script.ts";
import { ScriptHashMismatchError } from "./script-hash-mismatch-error.ts";
import { ScriptMetadataError } from "./script-metadata-error.ts";
import { ScriptNotFoundError } from "./script-not-found-error.ts";
import { ScriptPathOutsideRootError } from "./script-path-outside-root-error.ts";
import { ScriptSchemaConflictError } from "./script-schema-conflict-error.ts";
import { ScriptStore } from "./script-store.ts";

const typed = "function main(scale: number, copies: integer = 1) {\n  return scale * copies;\n}\n";
let sandbox: string;
let root: string;
let outside: string;
let store: ScriptStore;
let script: MaterializedScript;

beforeEach(async () => {
  sandbox = await mkdtemp(path.join(tmpdir(), "dcc-resolve-"));
  root = path.join(sandbox, "root");
  outside = path.join(sandbox, "outside");
  await mkdir(root);
  await mkdir(outside);
  await writeFile(path.join(outside, "evil.ts"), "function main() { return 'pwned' }");
  store = new ScriptStore({ root });
  script = await store.materialize(typed, { dccType: "maya", sessionId: "s", reuse: true });
});

afterEach(async () => {
  await rm(sandbox, { recursive: true, force: true });
});

async function sidecar(): Promise<Record<string, unknown>> {
  return JSON.parse(await readFile(`${script.filePath}.meta.json`, "utf8"));
}

describe("ScriptStore.resolve: confinement", () => {
  it("resolves an absolute path inside the root and a path relative to it", async () => {
    const absolute = await store.resolve(script.filePath);
    expect(absolute).toMatchObject({
      filePath: script.filePath,
      sha256: script.sha256,
      code: typed,
    });
    expect(absolute.metadata).toMatchObject({ reused: true, createdAt: script.createdAt });
    const relative = await store.resolve(path.relative(root, script.filePath));
    expect(relative.filePath).toBe(script.filePath);
  });

  it("rejects any .. segment, even one that lands inside the root", async () => {
    // Built by hand: path.join would normalise the .. away before the store sees it.
    const inside = `${path.dirname(script.filePath)}/../s/${path.basename(script.filePath)}`;
    for (const attempt of [
      inside,
      "../outside/evil.ts",
      "maya/../../outside/evil.ts",
      "..\\x.ts",
    ]) {
      await expect(store.resolve(attempt)).rejects.toThrow(ScriptPathOutsideRootError);
    }
    await expect(store.resolve("../outside/evil.ts")).rejects.toThrow("contains a .. segment");
  });

  it("rejects absolute paths elsewhere", async () => {
    for (const attempt of [path.join(outside, "evil.ts"), "/etc/passwd", `${root}-sibling/x.ts`]) {
      const error = await store.resolve(attempt).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ScriptPathOutsideRootError);
      expect((error as ScriptPathOutsideRootError).code).toBe("SCRIPT_PATH_OUTSIDE_ROOT");
      expect((error as Error).message).toContain(attempt);
    }
  });

  it("rejects a symlinked file that leads out of the root", async () => {
    const link = path.join(root, "innocent.ts");
    await symlink(path.join(outside, "evil.ts"), link);
    await expect(store.resolve(link)).rejects.toThrow("a symlink leads outside the scripts root");
  });

  it("rejects a symlinked directory that leads out of the root", async () => {
    await symlink(outside, path.join(root, "maya", "shared"));
    await expect(store.resolve("maya/shared/evil.ts")).rejects.toThrow(ScriptPathOutsideRootError);
  });

  it("follows a symlink that stays inside the root", async () => {
    const link = path.join(root, "alias.ts");
    await symlink(script.filePath, link);
    await expect(store.resolve(link)).resolves.toMatchObject({ filePath: script.filePath });
  });

  it("accepts paths through a root that is itself a symlink", async () => {
    const linkedRoot = path.join(sandbox, "linked-root");
    await symlink(root, linkedRoot);
    const linkedStore = new ScriptStore({ root: linkedRoot });
    const viaLink = path.join(linkedRoot, path.relative(root, script.filePath));
    await expect(linkedStore.resolve(viaLink)).resolves.toMatchObject({ sha256: script.sha256 });
    await expect(linkedStore.resolve(script.filePath)).resolves.toMatchObject({
      sha256: script.sha256,
    });
  });

  it("rejects missing files, directories, FIFOs and sidecars as not found", async () => {
    await expect(store.resolve("maya/none.ts")).rejects.toThrow(ScriptNotFoundError);
    await expect(store.resolve("maya")).rejects.toThrow("not a regular file");
    const fifo = path.join(root, "pipe.ts");
    execFileSync("mkfifo", [fifo]);
    await expect(store.resolve(fifo)).rejects.toThrow("not a regular file");
    await expect(store.resolve(`${script.filePath}.meta.json`)).rejects.toThrow("a sidecar");
  });

  it("does not reveal whether a path outside the root exists", async () => {
    await expect(store.resolve(path.join(outside, "missing.ts"))).rejects.toThrow(
      ScriptPathOutsideRootError,
    );
  });
});

describe("ScriptStore.resolve: integrity", () => {
  it("accepts the given sha256, in any case and with a sha256: prefix", async () => {
    await expect(store.resolve(script.filePath, { sha256: script.sha256 })).resolves.toBeDefined();
    await expect(
      store.resolve(script.filePath, { sha256: `sha256:${script.sha256.toUpperCase()}` }),
    ).resolves.toBeDefined();
  });

  it("rejects a file tampered with after materialization against its sha256", async () => {
    await writeFile(script.filePath, typed.replace("scale * copies", "dispatch('delete', {})"));
    const error = await store
      .resolve(script.filePath, { sha256: script.sha256 })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ScriptHashMismatchError);
    expect((error as ScriptHashMismatchError).code).toBe("SCRIPT_HASH_MISMATCH");
    expect((error as Error).message).toContain(`given sha256 ${script.sha256}`);
  });

  it("rejects a tampered file against its sidecar even without a sha256", async () => {
    await writeFile(script.filePath, `${typed}// edited\n`);
    await expect(store.resolve(script.filePath)).rejects.toThrow("recorded sha256");
  });

  it("rejects a sha256 that does not match an untouched file", async () => {
    await expect(store.resolve(script.filePath, { sha256: "0".repeat(64) })).rejects.toThrow(
      ScriptHashMismatchError,
    );
  });
});

describe("ScriptStore.resolve: sidecars", () => {
  it("rejects a sidecar whose schema conflicts with the body", async () => {
    const data = await sidecar();
    data["parametersSchema"] = { type: "object", properties: {}, additionalProperties: false };
    await writeFile(`${script.filePath}.meta.json`, JSON.stringify(data));
    const error = await store.resolve(script.filePath).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ScriptSchemaConflictError);
    expect((error as ScriptSchemaConflictError).code).toBe("SCRIPT_SCHEMA_CONFLICT");
  });

  it("ignores key order when comparing the sidecar schema", async () => {
    const data = await sidecar();
    const schema = data["parametersSchema"] as Record<string, unknown>;
    data["parametersSchema"] = Object.fromEntries(Object.entries(schema).reverse());
    await writeFile(`${script.filePath}.meta.json`, JSON.stringify(data));
    await expect(store.resolve(script.filePath)).resolves.toBeDefined();
  });

  it("accepts a legacy sidecar without a schema and derives it from the body", async () => {
    const data = await sidecar();
    delete data["parametersSchema"];
    await writeFile(`${script.filePath}.meta.json`, JSON.stringify(data));
    const resolved = await store.resolve(script.filePath);
    expect(resolved.parametersSchema).toEqual(script.parametersSchema);
    expect(resolved.metadata?.parametersSchema).toEqual(script.parametersSchema);
  });

  it("accepts a file without any sidecar", async () => {
    const plain = path.join(root, "hand-written.ts");
    await writeFile(plain, "function main(name: string) { return name }");
    const resolved = await store.resolve(plain);
    expect(resolved.metadata).toBeNull();
    expect(resolved.parametersSchema).toMatchObject({ required: ["name"] });
  });

  it("fails closed on a sidecar that is not JSON, lacks fields, or is a symlink", async () => {
    const file = `${script.filePath}.meta.json`;
    await writeFile(file, "{not json");
    await expect(store.resolve(script.filePath)).rejects.toThrow(ScriptMetadataError);
    await writeFile(file, JSON.stringify({ sha256: script.sha256 }));
    await expect(store.resolve(script.filePath)).rejects.toThrow("sha256 and bytes are required");
    await rm(file);
    await writeFile(path.join(outside, "meta.json"), JSON.stringify(await sidecarOf(script)));
    await symlink(path.join(outside, "meta.json"), file);
    await expect(store.resolve(script.filePath)).rejects.toThrow("not a regular file");
  });

  it("fails closed on a sidecar that records another file", async () => {
    const data = await sidecar();
    data["filePath"] = path.join(root, "other.ts");
    await writeFile(`${script.filePath}.meta.json`, JSON.stringify(data));
    await expect(store.resolve(script.filePath)).rejects.toThrow("records another filePath");
  });
});

function sidecarOf(descriptor: MaterializedScript): Record<string, unknown> {
  const { reused: _reused, ...rest } = descriptor;
  return rest;
}
