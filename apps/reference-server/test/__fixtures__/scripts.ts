/** The seed's agent example, verbatim. */
export const seedScript =
  'for (let i = 0; i < 5; i++) dispatch("polySphere", { position: [i, 0, 0] }); return { created: 5 };';

/** A 20-step scene: a car on a ground plane with a material, a camera, a light, keys and a saved file. */
export const carScript = `
dispatch("file", { new: true, force: true });
dispatch("polyPlane", { name: "ground", width: 20, height: 20 });
const [body] = dispatch("polyCube", { name: "body", width: 2, height: 1, depth: 4 });
dispatch("move", { args: [0, 1, 0, body] });
const [wheel] = dispatch("polyCylinder", { name: "wheel1", radius: 0.4, height: 0.3 });
dispatch("rotate", [0, 0, 90, wheel]);
dispatch("move", [1.1, 0.4, 1.5, wheel]);
const copies = dispatch("duplicate", [wheel]);
dispatch("move", { args: [0, 0, -3, copies[0]], relative: true });
const car = dispatch("group", { args: [body, wheel, copies[0]], name: "car" });
const red = dispatch("shadingNode", { args: ["blinn"], asShader: true, name: "red" });
dispatch("setAttr", [red + ".color", 1, 0, 0]);
dispatch("select", [body]);
dispatch("hyperShade", { assign: red });
dispatch("setKeyframe", { args: [car], attribute: "translateX", time: 1, value: 0 });
dispatch("setKeyframe", { args: [car], at: "tx", t: 49, v: 12 });
dispatch("currentTime", [25]);
const wheelAt25 = dispatch("xform", { args: [copies[0]], query: true, worldSpace: true, translation: true });
dispatch("file", { rename: "car.json" });
const saved = dispatch("file", { save: true });
return { car, wheels: [wheel, ...copies], wheelAt25, saved };
`;
