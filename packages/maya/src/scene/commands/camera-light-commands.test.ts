import { describe, expect, it } from "vitest";
import { sceneHarness } from "../__fixtures__/scene-harness.ts";

describe("cameras, lights and locators", () => {
  it("creates a camera, placed and queried through its flags", () => {
    const { run } = sceneHarness();
    expect(run("camera", { focalLength: 50, position: [0, 1, 10] })).toEqual([
      "camera1",
      "cameraShape1",
    ]);
    expect(run("camera", { args: ["cameraShape1"], q: true, fl: true })).toBe(50);
    expect(run("camera", { args: ["camera1"], q: true, position: true })).toEqual([0, 1, 10]);
    run("camera", { args: ["camera1"], e: true, farClipPlane: 500 });
    expect(run("getAttr", ["cameraShape1.fcp"])).toBe(500);
    expect(run("ls", { cameras: true })).toEqual(["cameraShape1"]);
    expect(() => run("camera", { args: ["camera1"], q: true })).toThrow(/say which flag/);
  });

  it("creates each light type and returns the shape", () => {
    const { run } = sceneHarness();
    expect(run("directionalLight", { intensity: 2, rotation: [-45, 0, 0] })).toBe(
      "directionalLightShape1",
    );
    expect(run("pointLight", { rgb: [1, 0.5, 0], position: [0, 4, 0] })).toBe("pointLightShape1");
    expect(run("spotLight", { coneAngle: 30, penumbra: 5, dropOff: 2 })).toBe("spotLightShape1");
    expect(run("ambientLight", { i: 0.3, n: "fill" })).toBe("fillShape");
    expect(run("getAttr", ["directionalLightShape1.intensity"])).toBe(2);
    expect(run("getAttr", ["directionalLight1.rx"])).toBe(-45);
    expect(run("getAttr", ["pointLightShape1.color"])).toEqual([[1, 0.5, 0]]);
    expect(run("getAttr", ["pointLight1.translate"])).toEqual([[0, 4, 0]]);
    expect(run("getAttr", ["spotLightShape1.penumbraAngle"])).toBe(5);
    expect(run("spotLight", { args: ["spotLight1"], q: true, coneAngle: true })).toBe(30);
    run("pointLight", { args: ["pointLightShape1"], e: true, intensity: 3 });
    expect(run("pointLight", { args: ["pointLight1"], q: true, i: true })).toBe(3);
    expect(run("ls", { lights: true })).toEqual([
      "directionalLightShape1",
      "pointLightShape1",
      "spotLightShape1",
      "fillShape",
    ]);
    expect(() => run("pointLight", { args: ["spotLight1"], q: true, i: true })).toThrow(
      /is not a pointLight/,
    );
  });

  it("creates locators with a local position", () => {
    const { run } = sceneHarness();
    expect(run("spaceLocator", { p: [1, 2, 3] })).toEqual(["locator1"]);
    expect(run("getAttr", ["locatorShape1.localPosition"])).toEqual([[1, 2, 3]]);
    expect(run("getAttr", ["locator1.translate"])).toEqual([[0, 0, 0]]);
  });
});
