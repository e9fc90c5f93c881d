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
      const frames = args["animation"] === true ? `frames ${start}–${end}` : `frame ${frame}`;
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
      return `bake (${call.command})`;
  }
}
