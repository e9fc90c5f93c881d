/**
 * A table of synonyms: each key and the words in its list form one group, and a query word from a
 * group also matches the other words of that group (at a lower weight than an exact match).
 * Words are single words; they are lower-cased and stemmed like everything else.
 */
export type SynonymTable = Readonly<Record<string, readonly string[]>>;

/**
 * General 3D vocabulary shared by every DCC, used by the `"ranked"` ranker. It holds no
 * application's command names; pass `synonyms` to {@link DccApiCatalog} to add a DCC's own words.
 */
export const DEFAULT_SYNONYMS: SynonymTable = Object.freeze({
  create: ["make", "add", "new", "build", "generate", "spawn", "construct"],
  delete: ["remove", "erase", "destroy", "del"],
  move: ["translate", "shift", "offset", "position"],
  rotate: ["rotation", "spin", "turn", "orient"],
  scale: ["resize", "size"],
  combine: ["unite", "join", "union"],
  separate: ["split", "detach"],
  duplicate: ["copy", "clone"],
  key: ["keyframe"],
  material: ["shader", "shading"],
  select: ["pick", "choose", "selection"],
  light: ["lamp", "illumination"],
  mesh: ["poly", "polygon", "geometry", "geo", "model"],
  face: ["facet", "polygon"],
  vertex: ["vert", "vtx", "point"],
  attribute: ["attr", "property", "parameter", "param"],
  animation: ["anim", "animate"],
  open: ["load"],
  save: ["write", "store"],
  import: ["load"],
  hide: ["conceal", "invisible"],
  show: ["unhide", "reveal", "display"],
  query: ["get", "read", "fetch", "retrieve", "inspect", "info"],
  assign: ["apply"],
  connect: ["link", "wire", "attach"],
  disconnect: ["unlink", "break", "detach"],
  constraint: ["constrain"],
  subdivide: ["tessellate", "subdiv", "subdivision"],
  triangulate: ["triangle", "tri"],
  bevel: ["chamfer"],
  mirror: ["reflect", "flip", "symmetry"],
  transform: ["xform", "transformation"],
  joint: ["bone", "skeleton"],
  skin: ["bind"],
  curve: ["spline"],
  texture: ["image"],
  center: ["centre", "middle"],
  color: ["colour"],
  normalize: ["normalise"],
  undo: ["revert"],
  rename: ["relabel"],
  group: ["grouping"],
  list: ["enumerate", "find"],
  bounding: ["bbox", "bounds"],
  render: ["rendering"],
  camera: ["cam"],
  locator: ["null", "helper"],
});
