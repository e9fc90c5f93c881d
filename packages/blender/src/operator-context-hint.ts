import type { BlenderArea, BlenderMode, BlenderOperator } from "./blender-operator.ts";

// Phrases in a fixed order; a group whose every mode is in the list reads as one phrase ("any
// Paint mode"), and the edit modes fold into one "Edit Mode (mesh, curve)".
const modeGroups: readonly (readonly [string, readonly (readonly [BlenderMode, string])[]])[] = [
  ["", [["OBJECT", "Object Mode"]]],
  [
    "any Edit Mode",
    [
      ["EDIT_MESH", "mesh"],
      ["EDIT_CURVE", "curve"],
      ["EDIT_TEXT", "text"],
      ["EDIT_LATTICE", "lattice"],
      ["EDIT_METABALL", "metaball"],
      ["EDIT_ARMATURE", "armature"],
    ],
  ],
  ["", [["SCULPT", "Sculpt Mode"]]],
  [
    "any Paint mode",
    [
      ["PAINT_VERTEX", "Vertex Paint"],
      ["PAINT_WEIGHT", "Weight Paint"],
      ["PAINT_TEXTURE", "Texture Paint"],
    ],
  ],
  ["", [["POSE", "Pose Mode"]]],
  [
    "any Grease Pencil mode",
    [
      ["EDIT_GPENCIL", "Grease Pencil Edit Mode"],
      ["PAINT_GPENCIL", "Grease Pencil Draw Mode"],
      ["SCULPT_GPENCIL", "Grease Pencil Sculpt Mode"],
      ["WEIGHT_GPENCIL", "Grease Pencil Weight Paint"],
    ],
  ],
  // Grease Pencil 3 (Blender 4.3 on) has modes of its own.
  [
    "any Grease Pencil mode",
    [
      ["EDIT_GREASE_PENCIL", "Grease Pencil Edit Mode"],
      ["PAINT_GREASE_PENCIL", "Grease Pencil Draw Mode"],
      ["SCULPT_GREASE_PENCIL", "Grease Pencil Sculpt Mode"],
      ["WEIGHT_GREASE_PENCIL", "Grease Pencil Weight Paint"],
    ],
  ],
];
const allModes: readonly BlenderMode[] = modeGroups.flatMap(([, members]) =>
  members.map(([mode]) => mode),
);
// The modes Blender 3.4 has (its catalog's): the default when a catalog does not say.
const modesBefore43: readonly BlenderMode[] = allModes.filter(
  (mode) => !mode.endsWith("GREASE_PENCIL"),
);

const areaLabels: Readonly<Record<BlenderArea, string>> = {
  VIEW_3D: "3D Viewport",
  IMAGE_EDITOR: "Image Editor",
  UV_EDITOR: "UV Editor",
  NODE_EDITOR: "Node Editor",
  SEQUENCE_EDITOR: "Video Sequencer",
  CLIP_EDITOR: "Movie Clip Editor",
  GRAPH_EDITOR: "Graph Editor",
  DOPESHEET_EDITOR: "Dope Sheet",
  NLA_EDITOR: "NLA Editor",
  TEXT_EDITOR: "Text Editor",
  OUTLINER: "Outliner",
  PROPERTIES: "Properties Editor",
  CONSOLE: "Python Console",
  INFO: "Info Editor",
  SPREADSHEET: "Spreadsheet",
};
const areaCount = Object.keys(areaLabels).length;

/**
 * A short hint of the context an operator needs, read from where its poll() passed in the
 * generator's test scene (a cube, an armature, a curve, a text, a lattice, a metaball and a
 * grease-pencil object, one mode at a time, with and without each editor): `"only in Edit Mode
 * (mesh)"`, `"not in any Edit Mode or Sculpt Mode"`, `"needs the Node Editor area"` (with
 * ", which dispatch provides (a 3D Viewport)" where the 3D Viewport will do), joined by
 * `"; "`, or `undefined` when poll() passed in every mode without an editor. A hint, not a
 * rule: poll() also looks at the selection and the data, which the test scene only partly covers.
 * `testedModes` are the modes the generator tried in that Blender (its catalog's `modes`;
 * default: Blender 3.4's).
 */
export function operatorContextHint(
  operator: BlenderOperator,
  testedModes: readonly BlenderMode[] = modesBefore43,
): string | undefined {
  const { modes, areas } = operator;
  if (modes !== undefined && modes.length === 0) {
    return "poll() failed in every tested context (needs other data, a selection or an editor state)";
  }
  const parts: string[] = [];
  if (modes !== undefined) {
    const missing = testedModes.filter((mode) => !modes.includes(mode));
    // Name whichever list is shorter: the modes it runs in, or those it does not.
    parts.push(
      modes.length <= missing.length
        ? `only in ${describeModes(modes)}`
        : `not in ${describeModes(missing)}`,
    );
  }
  if (areas !== undefined) parts.push(areaText(areas));
  return parts.length === 0 ? undefined : parts.join("; ");
}

function describeModes(modes: readonly BlenderMode[]): string {
  const phrases: string[] = [];
  for (const [whole, members] of modeGroups) {
    const present = members.filter(([mode]) => modes.includes(mode));
    if (present.length === 0) continue;
    if (whole !== "" && present.length === members.length) phrases.push(whole);
    else if (whole === "any Edit Mode") {
      phrases.push(`Edit Mode (${present.map(([, kind]) => kind).join(", ")})`);
    } else phrases.push(...present.map(([, label]) => label));
  }
  return orList(phrases);
}

// `blender.op` runs an operator whose poll() fails under the start-up file's 3D Viewport, so an
// operator that takes that editor works from a script all the same; the hint says so.
const lent = ", which dispatch provides (a 3D Viewport)";

function areaText(areas: readonly BlenderArea[]): string {
  const provided = areas.includes("VIEW_3D") ? lent : "";
  if (areas.length === areaCount) return `needs an editor area (any)${provided}`;
  return `needs the ${orList(areas.map((area) => areaLabels[area]))} area${provided}`;
}

function orList(words: readonly string[]): string {
  if (words.length <= 1) return words.join("");
  return `${words.slice(0, -1).join(", ")} or ${words[words.length - 1]}`;
}
