import type { SynonymTable } from "@dcc/catalog";

/**
 * Blender vocabulary for the catalog's `"ranked"` ranker, added to `@dcc/catalog`'s general 3D
 * synonyms: the words people use for what Blender names differently. Each key and its words form
 * one group, in both directions, so a word that would pull unrelated operators in ("uv" for a
 * sphere, "smooth" for subdivision) is left out. Word-to-word groups only; no command is mapped
 * to a query.
 */
export const BLENDER_SYNONYMS: SynonymTable = Object.freeze({
  // Primitives.
  sphere: ["icosphere", "ball", "globe"],
  monkey: ["suzanne"],
  // Blender says origin where other tools say pivot, clear where they say reset.
  origin: ["pivot"],
  clear: ["reset", "zero"],
  // The .blend file is the "mainfile" in operator names (not "homefile": that is the start-up file).
  file: ["mainfile", "blend"],
  reveal: ["unhide"],
  deselect: ["unselect"],
  // "select all" loses its "all" to the stopwords; "everything" finds the select_all operators.
  all: ["everything", "every"],
  // Text objects are fonts, Grease Pencil is gpencil in operator names.
  font: ["text"],
  gpencil: ["grease", "pencil"],
  keyframe: ["key", "keying", "animate"],
  // Materials are made of shader nodes.
  node: ["shader"],
  // Objects are gathered in collections, which older Blender and other tools call groups.
  collection: ["group", "folder"],
  link: ["assign", "attach"],
  // Modelling.
  subdivision: ["subsurf"],
  extrude: ["extend", "pull"],
  loopcut: ["loop", "cut"],
  doubles: ["distance", "duplicates"],
  knife: ["cut"],
  split: ["cut"],
  decimate: ["reduce", "simplify"],
  // Rigging.
  armature: ["rig", "skeleton"],
  parent: ["child", "hierarchy"],
  // Viewing, rendering, sound, settings.
  opengl: ["playblast", "preview"],
  xray: ["ray", "transparent"],
  sound: ["audio", "music"],
  userpref: ["preferences", "settings", "prefs"],
});
