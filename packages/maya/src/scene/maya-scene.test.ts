import { describe, expect, it } from "vitest";
import { sceneHarness } from "./__fixtures__/scene-harness.ts";
import { parseFlagSpecs } from "./command-spec.ts";
import { MayaScene } from "./maya-scene.ts";

describe("MayaScene", () => {
  it("implements at least 40 commands", () => {
    expect(new MayaScene().commandSpecs().length).toBeGreaterThanOrEqual(40);
  });

  it("gives every flag of a command distinct long and short names", () => {
    for (const spec of new MayaScene().commandSpecs()) {
      const flags = parseFlagSpecs(spec.flags, spec.queryable ?? false, spec.editable ?? false);
      const names = flags.flatMap((flag) =>
        flag.short && flag.short !== flag.long ? [flag.long, flag.short] : [flag.long],
      );
      expect(new Set(names).size, spec.name).toBe(names.length);
    }
  });

  it("fails with NOT_IMPLEMENTED for a command it does not simulate", () => {
    const { run } = sceneHarness();
    expect(() => run("polyExtrudeFacet", {})).toThrow(
      expect.objectContaining({
        code: "NOT_IMPLEMENTED",
        command: "polyExtrudeFacet",
        message: "polyExtrudeFacet is not implemented by the simulated Maya scene.",
      }),
    );
  });

  it("is deterministic: the same script gives the same state", () => {
    const build = (): unknown => {
      const { scene, run } = sceneHarness();
      for (let i = 0; i < 3; i++) run("polySphere", { position: [i, 0, 0] });
      run("group", ["pSphere1", "pSphere2"]);
      run("duplicate", ["group1"]);
      return scene.graph.state;
    };
    expect(build()).toEqual(build());
  });

  it("stops a long command at its checkpoints, leaving the scene unchanged", () => {
    let budget = Number.POSITIVE_INFINITY;
    const scene = new MayaScene({
      checkpoint: () => {
        budget--;
        if (budget < 0) throw Object.assign(new Error("cancelled"), { code: "CANCELLED" });
      },
    });
    for (let i = 0; i < 10; i++) scene.execute("polyCube");
    const cubes = scene.execute("ls", { type: "transform" });
    budget = 3;
    expect(() => scene.execute("ls")).toThrow("cancelled");
    budget = 3;
    expect(() => scene.execute("duplicate", cubes)).toThrow("cancelled");
    budget = Number.POSITIVE_INFINITY;
    expect(scene.execute("ls", { type: "transform" })).toHaveLength(10);
  });

  it("returns null rather than undefined", () => {
    const { run } = sceneHarness();
    run("polyCube");
    expect(run("select", { clear: true })).toBeNull();
  });
});
