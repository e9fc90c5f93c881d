// The five ways out of the data folder found in issue 31, tried over MCP against a real Blender:
// each is refused, nothing appears (or is read) outside the data folder, and the same
// operations with paths inside it write and read there.
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type BlenderAdapterOptions, createBlenderAdapter } from "@dcc/blender";
import type { TestClient } from "@dcc/mcp-test-clients";
import { assertBlender, describeWithBlender } from "@dcc/test-support";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createReferenceServer, type ReferenceServer } from "../src/index.ts";
import { connectHttp, execute } from "./__fixtures__/mcp-helpers.ts";

/** Every file under `folder`, relative to it, sorted. */
function filesUnder(folder: string): string[] {
  return (
    readdirSync(folder, { recursive: true, withFileTypes: true }) as import("node:fs").Dirent[]
  )
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath ?? entry.path, entry.name).slice(folder.length + 1))
    .sort();
}

const triangle = Buffer.from(new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0]).buffer);

/** A glTF of three points whose positions are read from the buffer at `uri`. */
function triangleGltf(uri: string): string {
  return JSON.stringify({
    asset: { version: "2.0" },
    scene: 0,
    scenes: [{ nodes: [0] }],
    nodes: [{ mesh: 0, name: "Tri" }],
    meshes: [{ name: "Tri", primitives: [{ attributes: { POSITION: 0 }, mode: 0 }] }],
    buffers: [{ uri, byteLength: 36 }],
    bufferViews: [{ buffer: 0, byteOffset: 0, byteLength: 36 }],
    accessors: [
      {
        bufferView: 0,
        componentType: 5126,
        count: 3,
        type: "VEC3",
        min: [0, 0, 0],
        max: [1, 1, 0],
      },
    ],
  });
}

// Runs `body` (a script) with `attempt(f)`, which returns `{ ok }` or `{ code, message }`.
const prelude = `
  function attempt(f) { try { return { ok: f() }; } catch (e) { return { code: e.code, message: e.message }; } }
`;

// The policy alone must hold, without the OS sandbox too: each configuration launches its own
// Blender (the default is sandboxed where bwrap runs).
const configurations: Array<[string, Partial<BlenderAdapterOptions>]> = [
  ["default", {}],
  ["sandbox off", { sandbox: "off" }],
];

for (const [label, adapterOptions] of configurations) {
  describeWithBlender(`the data folder holds over MCP (${label})`, () => {
    let server: ReferenceServer;
    let client: TestClient;
    let root: string;
    let dataDir: string;
    let outside: string;
    const run = async (code: string) => {
      const outcome = await execute(client, prelude + code, { timeout_secs: 240 });
      expect(outcome, JSON.stringify(outcome)).toMatchObject({ success: true });
      return outcome.output as Record<string, { ok?: unknown; code?: string; message?: string }>;
    };
    const assertOutsideUntouched = () => {
      expect(filesUnder(outside)).toEqual(["secret.bin"]);
      expect(readdirSync(root).sort()).toEqual(["data", "outside"]);
    };

    beforeAll(async () => {
      assertBlender();
      root = mkdtempSync(join(tmpdir(), "dcc-data-folder-"));
      dataDir = join(root, "data");
      outside = join(root, "outside");
      mkdirSync(dataDir);
      mkdirSync(outside);
      // A "secret" another program keeps outside: three vertices' coordinates, as a glTF buffer.
      writeFileSync(join(outside, "secret.bin"), triangle);
      const adapter = createBlenderAdapter({ ...adapterOptions, dataDir });
      server = await createReferenceServer({ port: 0, adapters: [adapter] });
      client = await connectHttp(server.url as string);
    });
    afterAll(async () => {
      await client?.close();
      await server?.close();
      if (root !== undefined) rmSync(root, { recursive: true, force: true });
    });

    it("route 1: glTF's export_texture_dir is checked like filepath, and the textures are listed", async () => {
      const output = await run(`
        dispatch("data.call", { path: "images.new", args: ["leak", 4, 4] });
        const tree = 'materials["Material"].node_tree';
        const node = dispatch("data.call", { path: tree + ".nodes.new", args: ["ShaderNodeTexImage"] });
        dispatch("data.set", { path: tree + '.nodes["' + node.name + '"].image', value: { $path: 'images["leak"]' } });
        dispatch("data.call", { path: tree + ".links.new", args: [{ $path: tree + '.nodes["' + node.name + '"].outputs["Color"]' }, { $path: tree + '.nodes["Principled BSDF"].inputs["Base Color"]' }] });
        const gltf = (dir) => attempt(() => dispatch("export_scene.gltf", { filepath: "out/x.gltf", export_format: "GLTF_SEPARATE", export_texture_dir: dir }));
        return { absolute: gltf(${JSON.stringify(join(outside, "tex"))}), dotdot: gltf("../../outside/tex"), inside: gltf("tex") };
      `);
      for (const refused of [output["absolute"], output["dotdot"]]) {
        expect(refused).toMatchObject({ code: "POLICY" });
        expect(refused?.message).toMatch(/export_texture_dir/);
      }
      expect(output["inside"]?.ok).toMatchObject({
        files: ["out/tex/leak.png", "out/x.bin", "out/x.gltf"],
      });
      expect(filesUnder(dataDir)).toEqual(
        expect.arrayContaining(["out/tex/leak.png", "out/x.bin", "out/x.gltf"]),
      );
      assertOutsideUntouched();
    });

    it("route 2: a File Output slot's path is checked when set, and every output when rendering", async () => {
      const output = await run(`
        const scene = 'scenes["Scene"]';
        for (const [path, value] of [["render.engine", "CYCLES"], ["cycles.samples", 1], ["cycles.use_denoising", false],
            ["render.resolution_x", 8], ["render.resolution_y", 8], ["render.resolution_percentage", 100], ["use_nodes", true]])
          dispatch("data.set", { path: scene + "." + path, value });
        const tree = scene + ".node_tree";
        const node = tree + '.nodes["' + dispatch("data.call", { path: tree + ".nodes.new", args: ["CompositorNodeOutputFile"] }).name + '"]';
        dispatch("data.set", { path: node + ".base_path", value: "comp/" });
        const slot = attempt(() => dispatch("data.set", { path: node + ".file_slots[0].path", value: "../../outside/escaped_" }));
        // A slot made with file_slots.new takes its path from the name: only the render sees it.
        dispatch("data.call", { path: node + ".file_slots.new", args: ["../../outside/escaped_"] });
        for (const index of [0, 1])
          dispatch("data.call", { path: tree + ".links.new", args: [{ $path: tree + '.nodes["Render Layers"].outputs["Image"]' }, { $path: node + ".inputs[" + index + "]" }] });
        const refused = attempt(() => dispatch("render.render", {}));
        dispatch("data.call", { path: node + ".file_slots.remove", args: [{ $path: node + ".inputs[1]" }] });
        const rendered = attempt(() => dispatch("render.render", {}));
        return { slot, refused, rendered };
      `);
      expect(output["slot"]).toMatchObject({ code: "POLICY" });
      expect(output["slot"]?.message).toMatch(/file_slots\[0\]\.path/);
      expect(output["refused"]).toMatchObject({ code: "POLICY" });
      expect(output["refused"]?.message).toMatch(/file_slots\[1\]\.path writes/);
      expect(output["rendered"]?.ok).toMatchObject({ files: ["comp/Image0001.png"] });
      expect(filesUnder(dataDir)).toContain("comp/Image0001.png");
      assertOutsideUntouched();
    });

    it("route 3: a save that would re-base a stored relative path out of the folder is refused", async () => {
      const output = await run(`
        dispatch("wm.save_as_mainfile", { filepath: "sub/s.blend" });
        dispatch("data.call", { path: "images.new", args: ["src", 4, 4] });
        const image = 'images["src"]';
        dispatch("data.set", { path: image + ".filepath_raw", value: "//in.png" });
        dispatch("data.set", { path: image + ".file_format", value: "PNG" });
        dispatch("data.call", { path: image + ".save" });
        dispatch("data.set", { path: image + ".pixels", value: new Array(64).fill(0.5) });
        dispatch("data.set", { path: image + ".filepath_raw", value: "//../rr.png" });
        const image_save = attempt(() => dispatch("wm.save_as_mainfile", { filepath: "top.blend", relative_remap: false }));
        // wm.save_mainfile to another folder does not remap relative paths by default.
        const plain_save = attempt(() => dispatch("wm.save_mainfile", { filepath: "top.blend" }));
        dispatch("data.set", { path: image + ".filepath_raw", value: "//in.png" });
        dispatch("data.set", { path: 'scenes["Scene"].render.filepath', value: "//../rout/" });
        const render_save = attempt(() => dispatch("wm.save_as_mainfile", { filepath: "top.blend", relative_remap: false }));
        // Blender remaps an image read from a file, but not the render output: it is kept
        // pointing where it did.
        dispatch("data.set", { path: 'scenes["Scene"].render.filepath', value: "//../renders/" });
        dispatch("data.set", { path: image + ".filepath_raw", value: "//../rr.png" });
        // Saved with its paths remapped, the file's stored paths keep meaning what they meant.
        const remapped = attempt(() => dispatch("wm.save_as_mainfile", { filepath: "top.blend" }));
        const written = attempt(() => dispatch("image.save_all_modified", {}));
        return { image_save, plain_save, render_save, remapped, written,
                 stored: dispatch("data.get", { path: image + ".filepath_raw" }),
                 output: dispatch("data.get", { path: 'scenes["Scene"].render.filepath' }) };
      `);
      expect(output["image_save"]).toMatchObject({ code: "POLICY" });
      expect(output["image_save"]?.message).toMatch(/images\["src"\]\.filepath/);
      expect(output["plain_save"]).toMatchObject({ code: "POLICY" });
      expect(output["plain_save"]?.message).toMatch(/images\["src"\]\.filepath/);
      expect(output["render_save"]).toMatchObject({ code: "POLICY" });
      expect(output["render_save"]?.message).toMatch(/render\.filepath/);
      expect(output["remapped"]?.ok).toMatchObject({ result: ["FINISHED"] });
      expect(output["stored"]).toBe("//rr.png");
      expect(output["output"]).toBe("//renders/");
      expect(output["written"]?.ok).toMatchObject({ files: ["rr.png"] });
      expect(filesUnder(dataDir)).toEqual(
        expect.arrayContaining(["rr.png", "sub/in.png", "top.blend"]),
      );
      assertOutsideUntouched();
    });

    it("route 4: names with control characters are refused, so no line reaches an exporter's .mtl", async () => {
      const secret = join(outside, "secret.bin");
      const output = await run(`
        const renamed = attempt(() => dispatch("data.set", { path: 'materials["Material"].name', value: "M\\nmap_Kd\\t${secret}" }));
        const created = attempt(() => dispatch("data.call", { path: "materials.new", args: ["N\\tx"] }));
        const exported = attempt(() => dispatch("wm.obj_export", { filepath: "o/inj.obj" }));
        const imported = attempt(() => dispatch("wm.obj_import", { filepath: "o/inj.obj" }));
        return { renamed, created, exported, imported,
                 images: dispatch("data.list", { collection: "images", options: { fields: ["filepath"] } }).map((i) => i.filepath) };
      `);
      for (const key of ["renamed", "created"]) {
        expect(output[key]).toMatchObject({ code: "POLICY" });
        expect(output[key]?.message).toMatch(/control characters/);
      }
      expect(output["exported"]?.ok).toMatchObject({ files: ["o/inj.mtl", "o/inj.obj"] });
      expect(output["imported"]?.ok).toMatchObject({ result: ["FINISHED"] });
      expect(JSON.stringify(output["images"])).not.toContain("secret");
      assertOutsideUntouched();
    });

    it("route 5: an importer's references are checked before it follows them", async () => {
      const secret = join(outside, "secret.bin");
      writeFileSync(join(dataDir, "abs.gltf"), triangleGltf(secret));
      writeFileSync(join(dataDir, "up.gltf"), triangleGltf("../outside/secret.bin"));
      writeFileSync(join(dataDir, "tri.bin"), triangle);
      writeFileSync(join(dataDir, "in.gltf"), triangleGltf("tri.bin"));
      writeFileSync(join(dataDir, "evil.mtl"), `newmtl M\nmap_Kd\t${secret}\n`);
      writeFileSync(
        join(dataDir, "evil.obj"),
        "mtllib evil.mtl\nv 0 0 0\nv 1 0 0\nv 0 1 0\nusemtl M\nf 1 2 3\n",
      );
      const output = await run(`
        const before = dispatch("data.list", { collection: "meshes" }).length;
        // FLAT: Blender 3.4's default shading guess fails with the numpy Debian ships.
        const gltf = (filepath) => attempt(() => dispatch("import_scene.gltf", { filepath, import_shading: "FLAT" }));
        const results = { absolute: gltf("abs.gltf"), dotdot: gltf("up.gltf"),
                          obj: attempt(() => dispatch("wm.obj_import", { filepath: "evil.obj" })) };
        results.added = dispatch("data.list", { collection: "meshes" }).length - before;
        results.inside = gltf("in.gltf");
        results.vertices = dispatch("data.list", { collection: 'meshes["Tri"].vertices', options: { fields: ["co"] } }).map((v) => v.co);
        return results;
      `);
      for (const [key, where] of [
        ["absolute", "buffers[0].uri"],
        ["dotdot", "buffers[0].uri"],
        ["obj", "map_Kd"],
      ] as const) {
        expect(output[key], key).toMatchObject({ code: "POLICY" });
        expect(output[key]?.message).toContain(where);
      }
      expect(output["added"]).toBe(0);
      expect(output["inside"]?.ok, JSON.stringify(output["inside"])).toMatchObject({
        result: ["FINISHED"],
      });
      expect(output["vertices"]).toHaveLength(3);
      assertOutsideUntouched();
    });
  });
}
