// The `render` rule on Blender: renders and bakes, worded with what is rendered (frames, engine,
// size) or baked.
import { type ApprovalCall, type ApprovalRule, approvalRuleNames } from "@dcc/executor";
import {
  type ApprovalHost,
  argsOf,
  countedNames,
  namesOf,
  type Read,
  readOf,
} from "./approval-host.ts";

// Renders and bakes (simulation bakes too): each may run for minutes. `viewport.screenshot` is
// left out on purpose: it is a look at the scene (Workbench, at most 1024 pixels a side, no file
// written), which an agent needs to work at all, not a render a person waits for.
/** Operators that render or bake. */
export const renderOperators: readonly string[] = [
  "render.render",
  "render.opengl",
  "object.bake",
  "object.bake_image",
  "ptcache.bake",
  "ptcache.bake_all",
  "ptcache.bake_from_cache",
  "fluid.bake_all",
  "fluid.bake_data",
  "fluid.bake_guides",
  "fluid.bake_mesh",
  "fluid.bake_noise",
  "fluid.bake_particles",
  "dpaint.bake",
  "object.ocean_bake",
  "object.simulation_nodes_cache_bake",
  "object.geometry_node_bake_single",
  "object.lightprobe_cache_bake",
  "scene.light_cache_bake",
  "rigidbody.bake_to_keyframes",
];

/** What each bake operator bakes, in words. */
const bakes: Readonly<Record<string, string>> = {
  "ptcache.bake": "bake a simulation's cache",
  "ptcache.bake_all": "bake every simulation's cache",
  "ptcache.bake_from_cache": "bake a simulation from its cache",
  "fluid.bake_all": "bake the fluid simulation",
  "fluid.bake_data": "bake the fluid simulation's data",
  "fluid.bake_guides": "bake the fluid simulation's guides",
  "fluid.bake_mesh": "bake the fluid simulation's mesh",
  "fluid.bake_noise": "bake the fluid simulation's noise",
  "fluid.bake_particles": "bake the fluid simulation's particles",
  "dpaint.bake": "bake dynamic paint",
  "object.ocean_bake": "bake the ocean",
  "object.simulation_nodes_cache_bake": "bake geometry-node simulations",
  "object.geometry_node_bake_single": "bake a geometry-node bake",
  "object.lightprobe_cache_bake": "bake light probes",
  "scene.light_cache_bake": "bake the light cache",
  "rigidbody.bake_to_keyframes": "bake the rigid-body simulation to keyframes",
};

/** The `render` rule: {@link renderOperators}, every call. */
export function renderRule(host: ApprovalHost): ApprovalRule {
  const read = readOf(host);
  return {
    name: approvalRuleNames.render,
    description: "a render or a bake",
    commands: [...renderOperators],
    covers: (call) => renderSummary(call, read),
  };
}

async function renderSummary(call: ApprovalCall, read: Read): Promise<string> {
  const args = argsOf(call);
  switch (call.command) {
    case "render.render":
    case "render.opengl": {
      const scene =
        typeof args["scene"] === "string" && args["scene"] !== ""
          ? (args["scene"] as string)
          : String(await read("context.scene.name", call.signal));
      const at = `scenes[${JSON.stringify(scene)}]`;
      const [engine, width, height, percent, frame, start, end] = await Promise.all(
        [
          "render.engine",
          "render.resolution_x",
          "render.resolution_y",
          "render.resolution_percentage",
          "frame_current",
          "frame_start",
          "frame_end",
        ].map((path) => read(`${at}.${path}`, call.signal)),
      );
      const scale = Number(percent) / 100;
      const size = `${Math.round(Number(width) * scale)}×${Math.round(Number(height) * scale)}`;
      // Blender 5 takes the range of an animation as arguments too.
      const first = typeof args["frame_start"] === "number" ? args["frame_start"] : start;
      const last = typeof args["frame_end"] === "number" ? args["frame_end"] : end;
      const frames = args["animation"] === true ? `frames ${first}–${last}` : `frame ${frame}`;
      const how = call.command === "render.opengl" ? "the viewport (OpenGL)" : String(engine);
      return `render ${frames} of scene ${scene} with ${how} at ${size}`;
    }
    case "object.bake":
    case "object.bake_image": {
      const names = namesOf(await read("context.selected_objects", call.signal));
      const type = typeof args["type"] === "string" ? ` ${args["type"]}` : "";
      return `bake${type} maps of ${countedNames("object", names)}`;
    }
    default:
      return `${bakes[call.command] ?? "bake"} (${call.command})`;
  }
}
