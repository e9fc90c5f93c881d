import type { ApprovalCall, ApprovalRule } from "@dcc/executor";
import { nameList } from "./internal/name-list.ts";
import { RuleCall } from "./internal/rule-call.ts";
import { type RuleHost, SceneReads } from "./internal/rule-host.ts";

const nodes = ["node", "nodes"] as const;

/** `frame 12` from a flag, else the scene's current frame, else `the current frame`. */
async function frameOf(call: RuleCall, reads: SceneReads, ...names: string[]): Promise<string> {
  const given = call.flag(...names);
  if (typeof given === "number") return `frame ${given}`;
  const current = await reads.currentFrame();
  return current === undefined ? "the current frame" : `frame ${current}`;
}

/** ` at 1920x1080` when both sizes are given. */
function size(width: unknown, height: unknown): string {
  return typeof width === "number" && typeof height === "number" ? ` at ${width}x${height}` : "";
}

/** `frames 1-24` from a `time` range (`[1, 24]` or `"1:24"`), or undefined. */
function range(value: unknown): string | undefined {
  const ends = Array.isArray(value)
    ? value.flat()
    : typeof value === "string"
      ? value.split(":")
      : typeof value === "number"
        ? [value]
        : [];
  const shown = ends.filter((end) => end !== "" && end !== null && end !== undefined);
  if (shown.length === 0) return undefined;
  return shown.length === 1 ? `frame ${shown[0]}` : `frames ${shown[0]}-${shown.at(-1)}`;
}

async function objects(call: RuleCall, reads: SceneReads): Promise<string> {
  const named = call.names();
  if (named.length > 0) return nameList(named, nodes);
  const selected = await reads.selection();
  return selected.length === 0 ? "the selection" : `the selection (${nameList(selected, nodes)})`;
}

async function renderSummary(command: string, call: RuleCall, reads: SceneReads): Promise<string> {
  switch (command) {
    case "render": {
      const camera = call.names()[0];
      const layer = call.text("layer", "l");
      return `render ${await frameOf(call, reads)} of ${camera ?? "the renderable camera"}${size(call.flag("xresolution", "x"), call.flag("yresolution", "y"))}${layer === undefined ? "" : ` (layer ${layer})`}`;
    }
    case "hwRender":
    case "ogsRender": {
      const camera = call.text("camera", "cam");
      const renderer = command === "hwRender" ? "the hardware renderer" : "Viewport 2.0";
      return `render ${await frameOf(call, reads, "frame", "f")} of ${camera ?? "the current view"} with ${renderer}${size(call.flag("width", "w"), call.flag("height", "h"))}`;
    }
    case "playblast": {
      const start = call.flag("startTime", "st");
      const end = call.flag("endTime", "et");
      const frames =
        range(call.flag("frame", "fr")) ??
        (start === undefined && end === undefined
          ? "the playback range"
          : `frames ${String(start ?? "start")}-${String(end ?? "end")}`);
      const file = call.text("completeFilename", "cf") ?? call.text("filename", "f");
      return `playblast ${frames}${file === undefined ? "" : ` to ${file}`}`;
    }
    case "convertSolidTx": {
      const [source, ...onto] = call.names();
      return `bake ${source ?? "the selected texture"} into a file texture${onto.length === 0 ? "" : ` for ${nameList(onto, nodes)}`}${size(call.flag("resolutionX", "rx"), call.flag("resolutionY", "ry"))}`;
    }
    case "surfaceSampler": {
      const maps = call.flag("mapOutput", "mo");
      const kinds = Array.isArray(maps) ? maps.join(", ") : typeof maps === "string" ? maps : "";
      const source = call.text("source", "s") ?? "the source";
      const target = call.text("target", "t") ?? "the target";
      return `bake ${kinds === "" ? "maps" : `${kinds} maps`} from ${source} onto ${target}`;
    }
    case "polyGeoSampler":
      return `bake lighting into the vertex colours of ${await objects(call, reads)}`;
    default: {
      const frames = range(call.flag("time", "t"));
      return `bake the animation of ${await objects(call, reads)}${frames === undefined ? " over the playback range" : ` over ${frames}`}`;
    }
  }
}

/**
 * The `render` rule on Maya: renders (`render`, `hwRender`, `ogsRender`, `playblast`) and
 * bakes (`convertSolidTx`, `surfaceSampler`, `polyGeoSampler` into textures and vertex colours;
 * `bakeResults`, `bakeSimulation` into keys). Queries are not covered, nor `playblast
 * -activeEditor` (it only names the editor). `batchRender` is refused by the policy anyway;
 * renderers' own commands (`arnoldRender`) are plug-in commands outside the catalog.
 */
export function mayaRenderRule(host: RuleHost): ApprovalRule {
  return Object.freeze({
    name: "render",
    description: "rendering or baking (long, and it writes images or keys)",
    commands: Object.freeze([
      "render",
      "hwRender",
      "ogsRender",
      "playblast",
      "convertSolidTx",
      "surfaceSampler",
      "polyGeoSampler",
      "bakeResults",
      "bakeSimulation",
    ]),
    covers: async ({ command, args, signal }: ApprovalCall): Promise<string | undefined> => {
      const call = new RuleCall(args);
      if (call.query || (command === "playblast" && call.on("activeEditor", "ae"))) {
        return undefined;
      }
      return renderSummary(command, call, new SceneReads(host, signal));
    },
  });
}
