import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { assertBlender, describeWithBlender } from "@dcc/test-support";
import { afterAll, beforeAll, expect, it } from "vitest";
import { blenderOperatorData } from "../src/index.ts";
import { vocabularyOf } from "../src/internal/blender-vocabulary.ts";
import { discoverOperators } from "../src/internal/discover-operators.ts";
import { type BlenderSession, outputOf, startBlenderSession } from "./support/blender-session.ts";

// The commands and the catalog are the serving Blender's own, whatever its version.
describeWithBlender("the running Blender's own operators", () => {
  let session: BlenderSession;
  let cacheDir: string;
  beforeAll(async () => {
    assertBlender();
    cacheDir = mkdtempSync(join(tmpdir(), "dcc-blender-cache-"));
    session = await startBlenderSession({ cacheDir });
  });
  afterAll(async () => {
    await session?.close();
    if (cacheDir !== undefined) rmSync(cacheDir, { recursive: true, force: true });
  });

  it("serves exactly the operators this Blender has, and search offers no other", async () => {
    const listed = (await session.adapter.call("blender.operators.list")) as {
      blender: string;
      names: string[];
    };
    const info = session.adapter.operators;
    expect(info?.blender).toBe(listed.blender);
    expect(info?.count).toBe(listed.names.length);
    const running = new Set(listed.names);
    const commands = session.adapter
      .commands()
      .map((command) => command.name)
      .filter((name) => !name.startsWith("data.") && name !== "viewport.screenshot");
    expect(new Set(commands)).toEqual(running);
    for (const query of [
      "export wavefront obj",
      "export stl",
      "export ply mesh",
      "smooth shading",
    ]) {
      // The search tool's own answer, as an MCP client gets it.
      const hits = session.executor.search(query, { limit: 10 }).results;
      expect(hits.length, query).toBeGreaterThan(0);
      for (const hit of hits) {
        if (
          hit.name.includes(".") &&
          !hit.name.startsWith("data.") &&
          hit.name !== "viewport.screenshot"
        ) {
          expect(running.has(hit.name), `${query}: ${hit.name}`).toBe(true);
        }
      }
    }
    // This Blender's STL exporter, whichever it is, is the one search offers first.
    const stl = running.has("wm.stl_export") ? "wm.stl_export" : "export_mesh.stl";
    expect(session.executor.search("export stl", { limit: 1 }).results[0]?.name).toBe(stl);
    // And it runs: this Blender's exporter writes the file in the data folder.
    const written = outputOf<{ files: string[] }>(
      await session.run(`return dispatch(${JSON.stringify(stl)}, { filepath: "cube.stl" });`),
    );
    expect(written.files).toEqual(["cube.stl"]);
  });

  it("tells the agent this Blender's names: its EEVEE id, exporters and Principled inputs", async () => {
    const words = (await session.adapter.call("blender.vocabulary")) as {
      eevee: string;
      principledInputs: string[];
    };
    const text = session.adapter.instructions?.({ search: "search", execute: "execute" }) ?? "";
    expect(text).toContain(`the EEVEE render engine is ${words.eevee}`);
    expect(text).toMatch(/its exporters are [^;]*(wm\.stl_export|export_mesh\.stl)/);
    expect(text).toContain(JSON.stringify(words.principledInputs[0]));
    expect(text).toContain("no USD or Alembic exporter in this build");
    // A tested version's names are known without Blender (a front end says the same).
    if (session.adapter.operators?.source === "tested") {
      const data = blenderOperatorData({ version: session.adapter.operators.blender });
      expect(vocabularyOf(data)).toMatchObject({
        eevee: words.eevee,
        principledInputs: words.principledInputs,
      });
    }
    expect(
      session.executor
        .search("set render engine", { limit: 20 })
        .results.find((r) => r.name === "data.set")?.description,
    ).toContain(`${words.eevee}, CYCLES`);
  });

  it("generates the operators of an untested build from Blender once, then reads them from the cache", async () => {
    const calls: string[] = [];
    const call = (method: string) => {
      calls.push(method);
      return session.adapter.call(method);
    };
    const generated = await discoverOperators({ call, cacheDir, ignoreTested: true });
    expect(generated.source).toBe("generated");
    expect(calls).toEqual(["blender.operators.list", "blender.operators.describe"]);
    expect(readdirSync(cacheDir)).toEqual([`operators-${generated.key}.json`]);
    // Signatures as that Blender has them; poll hints from the nearest tested catalog.
    const sphere = generated.data.operators.find((o) => o.name === "mesh.primitive_uv_sphere_add");
    expect(sphere?.params?.find((p) => p.name === "segments")).toMatchObject({
      type: "int",
      default: 32,
    });
    const subdivide = generated.data.operators.find((o) => o.name === "mesh.subdivide");
    expect(subdivide?.modes).toEqual(["EDIT_MESH"]);
    calls.length = 0;
    const cached = await discoverOperators({ call, cacheDir });
    // A tested version's shipped catalog wins over the cache; an untested one reads the cache.
    expect(["tested", "cache"]).toContain(cached.source);
    expect(calls).toEqual(["blender.operators.list"]);
    expect(cached.data.operators.map((o) => o.name)).toEqual(
      generated.data.operators.map((o) => o.name),
    );
    if (cached.source === "tested") {
      expect(cached.data).toBe(blenderOperatorData({ version: cached.data.blender }));
    }
  });
});
