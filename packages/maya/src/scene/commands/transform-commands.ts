import type { SceneCall, SceneCommandSpec } from "../command-spec.ts";
import {
  clean,
  compose,
  decompose,
  type Matrix,
  transformVector,
  type Vector3,
} from "../matrix.ts";
import type { MayaScene } from "../maya-scene.ts";
import { invalidArgument } from "../scene-error.ts";
import type { NodeData } from "../scene-state.ts";
import {
  isTransform,
  localMatrix,
  readTrs,
  setWorldMatrix,
  setWorldTranslation,
  worldMatrix,
  worldTranslation,
  writeTrs,
} from "../transforms.ts";

/** Splits `[x, y, z, ...objects]` (or `[[x, y, z], ...objects]`) into a vector and objects. */
function vectorAndObjects(call: SceneCall): { vector: Vector3; rest: unknown[] } {
  const [first, ...others] = call.args;
  if (Array.isArray(first)) return { vector: toVector(first, call.command), rest: others };
  const numbers = call.args.slice(0, 3);
  return { vector: toVector(numbers, call.command), rest: call.args.slice(3) };
}

function toVector(values: readonly unknown[], command: string): Vector3 {
  if (
    values.length !== 3 ||
    !values.every((value) => typeof value === "number" && Number.isFinite(value))
  ) {
    throw invalidArgument(
      `${command}: expects three numbers first in args, e.g. { args: [1, 0, 0, "pSphere1"] }.`,
    );
  }
  return values as Vector3;
}

function transformTargets(scene: MayaScene, call: SceneCall, rest: unknown[]): NodeData[] {
  const nodes = scene.targets({ ...call, args: rest });
  for (const node of nodes) {
    if (!isTransform(node))
      throw invalidArgument(`${call.command}: '${node.name}' is not a transform.`);
  }
  return nodes;
}

/** Replaces the components of `base` that the axis mask selects (all when no axis flag is set). */
function masked(base: Vector3, next: Vector3, mask: boolean[]): Vector3 {
  const any = mask.some(Boolean);
  return base.map((value, index) => (!any || mask[index] ? next[index] : value)) as Vector3;
}

/** The rotation part of a matrix with the scale taken out. */
function rotationOnly(matrix: Matrix): Matrix {
  const { rotate } = decompose(matrix);
  return compose([0, 0, 0], rotate, [1, 1, 1]);
}

const add = (a: Vector3, b: Vector3): Vector3 =>
  a.map((value, index) => clean(value + (b[index] ?? 0))) as Vector3;

const move: SceneCommandSpec<MayaScene> = {
  name: "move",
  summary:
    "Move objects (or the selection): absolute world position by default; relative (r) adds an offset in world, object (os) or local (ls) space; moveX/Y/Z (x/y/z) limit the axes.",
  positional: "x: number, y: number, z: number, ...objects: string[]",
  returns: "null",
  flags: "relative|r absolute|a worldSpace|ws objectSpace|os localSpace|ls moveX|x moveY|y moveZ|z",
  mutates: true,
  run(scene, call) {
    const graph = scene.graph;
    const { vector, rest } = vectorAndObjects(call);
    const mask = [
      call.flags["moveX"] === true,
      call.flags["moveY"] === true,
      call.flags["moveZ"] === true,
    ];
    for (const node of transformTargets(scene, call, rest)) {
      const local = readTrs(graph, node).translate;
      if (call.flags["relative"]) {
        const delta = masked([0, 0, 0], vector, mask);
        if (call.flags["localSpace"]) writeTrs(graph, node, { translate: add(local, delta) });
        else {
          const worldDelta = call.flags["objectSpace"]
            ? transformVector(delta, rotationOnly(worldMatrix(graph, node)))
            : delta;
          setWorldTranslation(graph, node, add(worldTranslation(graph, node), worldDelta));
        }
      } else if (call.flags["localSpace"] || call.flags["objectSpace"]) {
        writeTrs(graph, node, { translate: masked(local, vector, mask) });
      } else {
        setWorldTranslation(graph, node, masked(worldTranslation(graph, node), vector, mask));
      }
    }
    return null;
  },
};

const rotate: SceneCommandSpec<MayaScene> = {
  name: "rotate",
  summary:
    "Rotate objects (degrees, xyz order): absolute sets the rotation (ws: in world space); relative (r) adds to it; rotateX/Y/Z (x/y/z) limit the axes.",
  positional: "x: number, y: number, z: number, ...objects: string[]",
  returns: "null",
  flags: "relative|r absolute|a worldSpace|ws objectSpace|os rotateX|x rotateY|y rotateZ|z",
  mutates: true,
  run(scene, call) {
    const graph = scene.graph;
    const { vector, rest } = vectorAndObjects(call);
    const mask = [
      call.flags["rotateX"] === true,
      call.flags["rotateY"] === true,
      call.flags["rotateZ"] === true,
    ];
    for (const node of transformTargets(scene, call, rest)) {
      const local = readTrs(graph, node);
      if (call.flags["relative"]) {
        // Relative rotation adds Euler angles: the simplification the README documents.
        writeTrs(graph, node, { rotate: add(local.rotate, masked([0, 0, 0], vector, mask)) });
      } else if (call.flags["worldSpace"]) {
        const world = decompose(worldMatrix(graph, node));
        setWorldMatrix(
          graph,
          node,
          compose(world.translate, masked(world.rotate, vector, mask), world.scale),
        );
      } else {
        writeTrs(graph, node, { rotate: masked(local.rotate, vector, mask) });
      }
    }
    return null;
  },
};

const scale: SceneCommandSpec<MayaScene> = {
  name: "scale",
  summary:
    "Scale objects: absolute sets the scale; relative (r) multiplies it; scaleX/Y/Z (x/y/z) limit the axes.",
  positional: "x: number, y: number, z: number, ...objects: string[]",
  returns: "null",
  flags: "relative|r absolute|a worldSpace|ws objectSpace|os scaleX|x scaleY|y scaleZ|z",
  mutates: true,
  run(scene, call) {
    const graph = scene.graph;
    const { vector, rest } = vectorAndObjects(call);
    const mask = [
      call.flags["scaleX"] === true,
      call.flags["scaleY"] === true,
      call.flags["scaleZ"] === true,
    ];
    for (const node of transformTargets(scene, call, rest)) {
      const current = readTrs(graph, node).scale;
      const next = call.flags["relative"]
        ? (current.map((value, index) => clean(value * (vector[index] ?? 1))) as Vector3)
        : vector;
      writeTrs(graph, node, { scale: masked(current, next, mask) });
    }
    return null;
  },
};

function queryXform(scene: MayaScene, node: NodeData, call: SceneCall): unknown {
  const graph = scene.graph;
  const world = call.flags["worldSpace"] === true;
  if (call.flags["matrix"])
    return (world ? worldMatrix(graph, node) : localMatrix(graph, node)).map(clean);
  const parts = world ? decompose(worldMatrix(graph, node)) : readTrs(graph, node);
  if (call.flags["translation"]) return parts.translate;
  if (call.flags["rotation"]) return parts.rotate;
  if (call.flags["scale"]) return parts.scale;
  throw invalidArgument(
    "xform: say what to query: translation (t), rotation (ro), scale (s) or matrix (m).",
  );
}

const xform: SceneCommandSpec<MayaScene> = {
  name: "xform",
  summary:
    "Query or set translation (t), rotation (ro), scale (s) or matrix (m) of transforms, in object space or world space (ws), absolute or relative (r).",
  positional: "...objects: string[]",
  returns: "number[] | null",
  flags:
    "translation|t:vector3 rotation|ro:vector3 scale|s:vector3 matrix|m:any worldSpace|ws objectSpace|os relative|r absolute|a",
  queryable: true,
  mutates: true,
  run(scene, call) {
    const graph = scene.graph;
    const nodes = transformTargets(scene, call, call.args);
    // Like Maya, several objects give one flat list of their values, in order.
    if (call.query) return nodes.flatMap((node) => queryXform(scene, node, call) as number[]);
    const { flags } = call;
    const relative = flags["relative"] === true;
    const world = flags["worldSpace"] === true;
    for (const node of nodes) {
      if (flags["matrix"] !== undefined) {
        const matrix = flags["matrix"];
        if (
          !Array.isArray(matrix) ||
          matrix.length !== 16 ||
          !matrix.every((value) => typeof value === "number")
        ) {
          throw invalidArgument(
            "xform: matrix expects 16 numbers (row-major, translation in the last row).",
          );
        }
        if (world) setWorldMatrix(graph, node, matrix as Matrix);
        else writeTrs(graph, node, decompose(matrix as Matrix));
      }
      const translation = flags["translation"] as Vector3 | undefined;
      if (translation) {
        if (world)
          setWorldTranslation(
            graph,
            node,
            relative ? add(worldTranslation(graph, node), translation) : translation,
          );
        else
          writeTrs(graph, node, {
            translate: relative ? add(readTrs(graph, node).translate, translation) : translation,
          });
      }
      const rotation = flags["rotation"] as Vector3 | undefined;
      if (rotation) {
        if (relative) writeTrs(graph, node, { rotate: add(readTrs(graph, node).rotate, rotation) });
        else if (world) {
          const parts = decompose(worldMatrix(graph, node));
          setWorldMatrix(graph, node, compose(parts.translate, rotation, parts.scale));
        } else writeTrs(graph, node, { rotate: rotation });
      }
      const scaleValue = flags["scale"] as Vector3 | undefined;
      if (scaleValue) {
        const current = readTrs(graph, node).scale;
        writeTrs(graph, node, {
          scale: relative
            ? (current.map((value, index) => clean(value * (scaleValue[index] ?? 1))) as Vector3)
            : scaleValue,
        });
      }
    }
    return null;
  },
};

/** move, rotate, scale, xform. */
export const transformCommands: SceneCommandSpec<MayaScene>[] = [move, rotate, scale, xform];
