import type { SceneCommandSpec } from "../command-spec.ts";
import type { MayaScene } from "../maya-scene.ts";
import { animationCommands } from "./animation-commands.ts";
import { attributeCommands } from "./attribute-commands.ts";
import { cameraLightCommands } from "./camera-light-commands.ts";
import { connectionCommands } from "./connection-commands.ts";
import { fileCommands } from "./file-commands.ts";
import { hierarchyCommands } from "./hierarchy-commands.ts";
import { primitiveCommands } from "./primitive-commands.ts";
import { queryCommands } from "./query-commands.ts";
import { shadingCommands } from "./shading-commands.ts";
import { transformCommands } from "./transform-commands.ts";

/** Every command the simulated scene implements. */
export const sceneCommands: SceneCommandSpec<MayaScene>[] = [
  ...primitiveCommands,
  ...queryCommands,
  ...hierarchyCommands,
  ...transformCommands,
  ...attributeCommands,
  ...connectionCommands,
  ...animationCommands,
  ...shadingCommands,
  ...cameraLightCommands,
  ...fileCommands,
];
