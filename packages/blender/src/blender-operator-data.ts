import { readFileSync } from "node:fs";
import type { BlenderArea, BlenderMode, BlenderOperator } from "./blender-operator.ts";
import { deepFreeze } from "./internal/deep-freeze.ts";

/** The generated operator data: the Blender version it was read from and every operator. */
export interface BlenderOperatorData {
  /** Blender's version string, e.g. `3.4.1`. */
  readonly blender: string;
  /** The modes poll() was tested in. */
  readonly modes: readonly BlenderMode[];
  /** The editors poll() was tested under. */
  readonly areas: readonly BlenderArea[];
  /** Polls left out because they crash Blender (`AREA/operator`, `*` for every editor). */
  readonly skippedPolls: readonly string[];
  /** Every operator, sorted by name. */
  readonly operators: readonly BlenderOperator[];
}

// Read with fs rather than imported: typing a 900 KB literal would slow every type check. The
// build copies the file next to the compiled module, so this URL works from src and dist alike.
const dataUrl = new URL("./data/operators.generated.json", import.meta.url);

let data: BlenderOperatorData | undefined;

/**
 * The operator catalog generated from Blender (`scripts/generate-catalog.mjs`), read on first
 * call, then cached and deeply frozen. Needs neither Blender nor anything outside the package.
 */
export function blenderOperatorData(): BlenderOperatorData {
  data ??= deepFreeze(JSON.parse(readFileSync(dataUrl, "utf8")) as BlenderOperatorData);
  return data;
}
