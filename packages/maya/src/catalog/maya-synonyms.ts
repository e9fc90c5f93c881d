import type { SynonymTable } from "@dcc/catalog";

/**
 * Maya vocabulary for the catalog's `"ranked"` ranker, added to `@dcc/catalog`'s general 3D
 * synonyms: the words users say for what Maya names differently ("freeze" transforms is
 * `makeIdentity`, a "force" is a field, "look through" is `lookThru`). Word-to-word groups only;
 * no command is mapped to a query.
 */
export const MAYA_SYNONYMS: SynonymTable = Object.freeze({
  freeze: ["identity"],
  // Not "simplify": Maya's simplify command thins animation curves, not meshes.
  decimate: ["reduce"],
  weld: ["merge"],
  boolean: ["bool"],
  morph: ["blend"],
  through: ["thru"],
  scene: ["file"],
  project: ["workspace"],
  force: ["field"],
  wind: ["air"],
  sun: ["directional"],
  channel: ["attribute", "attr"],
  custom: ["user", "dynamic"],
  child: ["children", "relative", "descendent", "descendant"],
  parent: ["reparent"],
  unwrap: ["unfold"],
  focus: ["fit"],
  timeline: ["playback"],
  shader: ["shading", "material"],
  joint: ["bone"],
  object: ["node"],
  mesh: ["poly"],
  keyframe: ["key"],
  skin: ["bind"],
  ik: ["kinematic"],
  extract: ["chip"],
});
