import { evaluate, findAttribute, writePlug } from "./attributes.ts";
import {
  compose,
  decompose,
  identity,
  invert,
  type Matrix,
  multiply,
  transformPoint,
  type Vector3,
} from "./matrix.ts";
import { isTypeOf } from "./node-types.ts";
import type { SceneGraph } from "./scene-graph.ts";
import type { NodeData } from "./scene-state.ts";

/** Local translate, rotate and scale of a transform. */
export interface Trs {
  translate: Vector3;
  rotate: Vector3;
  scale: Vector3;
}

/** True when a node has transform channels. */
export function isTransform(node: NodeData): boolean {
  return isTypeOf(node.type, "transform");
}

/** Reads a compound channel (translate, rotate, scale) at the current time. */
export function readVector(graph: SceneGraph, node: NodeData, compound: string): Vector3 {
  const value = evaluate(graph, node, compound, graph.state.currentTime);
  return (Array.isArray(value) ? value : [0, 0, 0]) as Vector3;
}

/** The local channels of a transform. */
export function readTrs(graph: SceneGraph, node: NodeData): Trs {
  return {
    translate: readVector(graph, node, "translate"),
    rotate: readVector(graph, node, "rotate"),
    scale: readVector(graph, node, "scale"),
  };
}

/** The local matrix of a transform (identity for other DAG nodes). */
export function localMatrix(graph: SceneGraph, node: NodeData): Matrix {
  if (!isTransform(node)) return identity();
  const trs = readTrs(graph, node);
  return compose(trs.translate, trs.rotate, trs.scale);
}

/** The world matrix: local matrices multiplied up to the world. */
export function worldMatrix(graph: SceneGraph, node: NodeData): Matrix {
  let matrix = localMatrix(graph, node);
  for (let parent = node.parent; parent !== null; parent = graph.node(parent).parent) {
    matrix = multiply(matrix, localMatrix(graph, graph.node(parent)));
  }
  return matrix;
}

/** The world matrix of a node's parent (identity under the world). */
export function parentMatrix(graph: SceneGraph, node: NodeData): Matrix {
  return node.parent === null ? identity() : worldMatrix(graph, graph.node(node.parent));
}

/** Writes some local channels, honouring locks and connections. */
export function writeTrs(graph: SceneGraph, node: NodeData, trs: Partial<Trs>): void {
  for (const [compound, value] of Object.entries(trs)) {
    const found = findAttribute(node, compound);
    if (found && value) writePlug(graph, { node, attribute: found[0], data: found[1] }, [value]);
  }
}

/** Sets the local channels so that the node ends up with `matrix` as its world matrix. */
export function setWorldMatrix(graph: SceneGraph, node: NodeData, matrix: Matrix): void {
  writeTrs(graph, node, decompose(multiply(matrix, invert(parentMatrix(graph, node)))));
}

/** Moves a transform so its origin sits at `position` in world space. */
export function setWorldTranslation(graph: SceneGraph, node: NodeData, position: Vector3): void {
  writeTrs(graph, node, { translate: transformPoint(position, invert(parentMatrix(graph, node))) });
}

/** The world-space position of a transform's origin. */
export function worldTranslation(graph: SceneGraph, node: NodeData): Vector3 {
  return transformPoint([0, 0, 0], worldMatrix(graph, node));
}
