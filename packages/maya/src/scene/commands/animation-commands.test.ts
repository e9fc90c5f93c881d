import { describe, expect, it } from "vitest";
import { sceneHarness } from "../__fixtures__/scene-harness.ts";

function keyed() {
  const harness = sceneHarness();
  const { run } = harness;
  run("polySphere");
  run("setKeyframe", { args: ["pSphere1"], attribute: "translateX", time: 1, value: 0 });
  run("setKeyframe", { args: ["pSphere1"], at: "tx", t: 11, v: 10 });
  run("setKeyframe", { args: ["pSphere1.ty"], t: [1, 21], v: 4 });
  return harness;
}

describe("setKeyframe and evaluation", () => {
  it("creates Maya-named curves and interpolates linearly between keys", () => {
    const { run } = keyed();
    expect(run("ls", { type: "animCurve" })).toEqual([
      "pSphere1_translateX",
      "pSphere1_translateY",
    ]);
    expect(run("nodeType", ["pSphere1_translateX"])).toBe("animCurveTL");
    expect(run("getAttr", { args: ["pSphere1.tx"], time: 6 })).toBe(5);
    expect(run("getAttr", { args: ["pSphere1.tx"], t: 0 })).toBe(0);
    expect(run("getAttr", { args: ["pSphere1.tx"], t: 100 })).toBe(10);
    expect(run("getAttr", ["pSphere1.translate"])).toEqual([[0, 4, 0]]);
    run("currentTime", [11]);
    expect(run("getAttr", ["pSphere1.tx"])).toBe(10);
    expect(run("xform", { args: ["pSphere1"], q: true, ws: true, t: true })).toEqual([10, 4, 0]);
  });

  it("keys every keyable channel with the current values when no attribute is given", () => {
    const { run } = sceneHarness();
    run("polyCube");
    run("setAttr", ["pCube1.ry", 45]);
    run("currentTime", [5]);
    expect(run("setKeyframe", ["pCube1"])).toBe(10);
    expect(run("ls", { type: "animCurveTA" })).toEqual([
      "pCube1_rotateX",
      "pCube1_rotateY",
      "pCube1_rotateZ",
    ]);
    expect(run("keyframe", { args: ["pCube1.ry"], q: true, valueChange: true })).toEqual([45]);
    expect(run("keyframe", { args: ["pCube1.ry"], q: true, timeChange: true })).toEqual([5]);
    expect(run("setKeyframe", { args: ["pCube1"], at: "rotate", t: 10, v: 90 })).toBe(3);
  });

  it("holds step keys", () => {
    const { run } = sceneHarness();
    run("polyCube");
    run("setKeyframe", { args: ["pCube1"], at: "tx", t: 1, v: 0, ott: "step" });
    run("setKeyframe", { args: ["pCube1"], at: "tx", t: 10, v: 10 });
    expect(run("getAttr", { args: ["pCube1.tx"], t: 9 })).toBe(0);
  });

  it("keys custom attributes and rejects unknown ones", () => {
    const { run } = sceneHarness();
    run("polyCube");
    run("addAttr", { args: ["pCube1"], ln: "speed", k: true });
    run("setKeyframe", { args: ["pCube1"], at: "speed", t: 1, v: 2 });
    expect(run("nodeType", ["pCube1_speed"])).toBe("animCurveTU");
    expect(() => run("setKeyframe", { args: ["pCube1"], at: "bogus" })).toThrow(
      /has no attribute 'bogus'/,
    );
    run("select", { clear: true });
    expect(() => run("setKeyframe")).toThrow(/Not enough objects/);
  });
});

describe("keyframe and cutKey", () => {
  it("counts, lists and evaluates keys, within a time range", () => {
    const { run } = keyed();
    expect(run("keyframe", { args: ["pSphere1"], q: true, keyframeCount: true })).toBe(4);
    expect(run("keyframe", { args: ["pSphere1"], at: "tx", q: true, kc: true })).toBe(2);
    expect(run("keyframe", { args: ["pSphere1"], at: "tx", q: true })).toEqual([1, 11]);
    expect(run("keyframe", { args: ["pSphere1"], at: "tx", q: true, vc: true })).toEqual([0, 10]);
    expect(run("keyframe", { args: ["pSphere1"], q: true, time: [5, 15], tc: true })).toEqual([11]);
    expect(run("keyframe", { args: ["pSphere1"], q: true, t: "10:", kc: true })).toBe(2);
    expect(run("keyframe", { args: ["pSphere1"], q: true, name: true })).toEqual([
      "pSphere1_translateX",
      "pSphere1_translateY",
    ]);
    expect(run("keyframe", { args: ["pSphere1_translateX"], q: true, eval: true, t: 6 })).toEqual([
      5,
    ]);
  });

  it("edits key values and times, absolute and relative", () => {
    const { run } = keyed();
    expect(run("keyframe", { args: ["pSphere1"], at: "tx", e: true, t: 11, valueChange: 20 })).toBe(
      1,
    );
    expect(run("getAttr", { args: ["pSphere1.tx"], t: 11 })).toBe(20);
    run("keyframe", { args: ["pSphere1"], at: "tx", edit: true, relative: true, timeChange: 5 });
    expect(run("keyframe", { args: ["pSphere1"], at: "tx", q: true })).toEqual([6, 16]);
    run("keyframe", { args: ["pSphere1"], at: "tx", e: true, r: true, vc: 1 });
    expect(run("keyframe", { args: ["pSphere1"], at: "tx", q: true, vc: true })).toEqual([1, 21]);
  });

  it("cuts keys in a range and deletes emptied curves", () => {
    const { run } = keyed();
    expect(run("cutKey", { args: ["pSphere1"], at: "tx", time: [10, 20] })).toBe(1);
    expect(run("keyframe", { args: ["pSphere1"], at: "tx", q: true })).toEqual([1]);
    expect(run("cutKey", ["pSphere1"])).toBe(2);
    expect(run("ls", { type: "animCurve" })).toEqual([]);
    expect(run("getAttr", ["pSphere1.ty"])).toBe(0);
  });
});

describe("currentTime and playbackOptions", () => {
  it("sets and queries the current time", () => {
    const { run } = sceneHarness();
    expect(run("currentTime", { q: true })).toBe(1);
    expect(run("currentTime", [24])).toBe(24);
    expect(run("currentTime", { query: true })).toBe(24);
    expect(() => run("currentTime", ["soon"])).toThrow(/expects a number/);
  });

  it("sets and queries the playback range", () => {
    const { run } = sceneHarness();
    expect(run("playbackOptions", { q: true, minTime: true })).toBe(1);
    expect(run("playbackOptions", { q: true, max: true })).toBe(120);
    expect(run("playbackOptions", { q: true, animationEndTime: true })).toBe(200);
    run("playbackOptions", { min: 10, max: 250, ast: 5 });
    expect(run("playbackOptions", { q: true, maxTime: true })).toBe(250);
    expect(run("playbackOptions", { q: true, aet: true })).toBe(250);
    expect(run("playbackOptions", { q: true, ast: true })).toBe(5);
    expect(() => run("playbackOptions", { minTime: 300 })).toThrow(
      /minTime must not be after maxTime/,
    );
  });
});
