import { MayaScene, type MayaSceneOptions } from "../maya-scene.ts";

/** A fresh scene and a `run(name, args)` shorthand that follows the dispatch convention. */
export function sceneHarness(options: MayaSceneOptions = {}): {
  scene: MayaScene;
  run: (name: string, args?: unknown) => unknown;
} {
  const scene = new MayaScene(options);
  return { scene, run: (name, args) => scene.execute(name, args) };
}

/** Rounds every number in a nested value, for comparing float results. */
export function rounded(value: unknown, digits = 6): unknown {
  if (typeof value === "number") return Number(value.toFixed(digits)) + 0;
  if (Array.isArray(value)) return value.map((item) => rounded(item, digits));
  return value;
}
