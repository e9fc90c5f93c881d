import type { MayaScene } from "../maya-scene.ts";
import type { NodeData } from "../scene-state.ts";

/** Creates a light transform and shape (`pointLight1`/`pointLightShape1`) and selects it. */
export function createLight(
  scene: MayaScene,
  type: string,
  name: string,
): { transform: NodeData; shape: NodeData } {
  const created = scene.graph.createTransformWithShape(type, name);
  scene.select([created.transform]);
  return created;
}
