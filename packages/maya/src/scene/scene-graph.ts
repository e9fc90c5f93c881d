import { defaultAttributes } from "./attribute-table.ts";
import { shapeNameFor, uniqueName } from "./naming.ts";
import { nodeTypeInfo } from "./node-types.ts";
import { invalidArgument, noObject } from "./scene-error.ts";
import { applyJournal, recordNode, type SceneJournal } from "./scene-journal.ts";
import type { NodeData, SceneState } from "./scene-state.ts";

/** Options for {@link SceneGraph.createNode}. */
export interface CreateNodeOptions {
  /** Desired name; `#` and clashes become the next free number. */
  name: string;
  /** Parent DAG node id. */
  parent?: number | null;
}

/** A fresh scene: the default material and shading group, frame 1, range 1–120. */
export function emptySceneState(): SceneState {
  const state: SceneState = {
    nextId: 1,
    nodes: {},
    selection: [],
    connections: [],
    currentTime: 1,
    playback: {
      minTime: 1,
      maxTime: 120,
      animationStartTime: 1,
      animationEndTime: 200,
      by: 1,
      playbackSpeed: 1,
    },
  };
  const graph = new SceneGraph(state);
  const lambert = graph.createNode("lambert", { name: "lambert1" });
  const group = graph.createNode("shadingEngine", { name: "initialShadingGroup" });
  group.members = [];
  state.connections.push({
    sourceNode: lambert.id,
    sourceAttribute: "outColor",
    destinationNode: group.id,
    destinationAttribute: "surfaceShader",
  });
  return state;
}

/**
 * The node graph of a simulated scene: creation with Maya's naming, lookup by name or DAG path,
 * hierarchy, deletion. Node names are unique across the scene (Maya only requires that of
 * sibling DAG nodes), which keeps every short name a valid handle.
 */
export class SceneGraph {
  #state: SceneState;
  // Name lookups are hot (auto-naming probes many candidates), so names are indexed; the index
  // is rebuilt whenever the whole state is replaced (undo, file open).
  #byName: Map<string, NodeData> | undefined;
  /** The journal of the command running now; every change to a node is recorded in it first. */
  journal: SceneJournal | undefined;

  constructor(state: SceneState) {
    this.#state = state;
  }

  /** The scene state; assigning replaces it wholesale. */
  get state(): SceneState {
    return this.#state;
  }

  set state(state: SceneState) {
    this.#state = state;
    this.#byName = undefined;
  }

  /** All nodes in creation order (integer-like keys enumerate in ascending order). */
  nodes(): NodeData[] {
    return Object.values(this.#state.nodes);
  }

  #names(): Map<string, NodeData> {
    if (!this.#byName) {
      this.#byName = new Map();
      for (const node of this.nodes()) this.#byName.set(node.name, node);
    }
    return this.#byName;
  }

  /**
   * Records a node's before-image in the running command's journal. Call it before changing
   * anything on an existing node: undo and failure rollback rely on it.
   */
  touch(node: NodeData): NodeData {
    if (this.journal) recordNode(this.journal, node, false);
    return node;
  }

  /** Restores a journal (undo, redo, rollback); returns its inverse. */
  apply(journal: SceneJournal): SceneJournal {
    const inverse = applyJournal(this.#state, journal);
    this.#byName = undefined;
    return inverse;
  }

  /** Renames a node (the caller has made `name` unique). */
  setName(node: NodeData, name: string): void {
    this.touch(node);
    const names = this.#names();
    if (names.get(node.name) === node) names.delete(node.name);
    node.name = name;
    names.set(name, node);
  }

  /** The node with `id`. */
  node(id: number): NodeData {
    const node = this.state.nodes[String(id)];
    if (!node) throw noObject(`#${id}`);
    return node;
  }

  /** True when a node called `name` exists. */
  nameTaken(name: string): boolean {
    return this.#names().has(name);
  }

  /** Finds a node by short name, full path (`|group1|pSphere1`) or partial path. */
  find(name: string): NodeData | undefined {
    const trimmed = name.trim();
    const segments = trimmed.split("|").filter((segment) => segment !== "");
    const last = segments.at(-1);
    if (last === undefined) return undefined;
    const node = this.#names().get(last);
    if (!node || (segments.length === 1 && !trimmed.startsWith("|"))) return node;
    const path = this.fullPath(node);
    if (trimmed.startsWith("|")) return path === trimmed ? node : undefined;
    return path.endsWith(`|${trimmed}`) ? node : undefined;
  }

  /** Like {@link find} but throws Maya's "No object matches name" error. */
  resolve(name: unknown): NodeData {
    if (typeof name !== "string")
      throw invalidArgument(`Expected an object name, got ${JSON.stringify(name)}`);
    const node = this.find(name);
    if (!node) throw noObject(name);
    return node;
  }

  /** Creates a node with default attributes and Maya's auto-naming. */
  createNode(type: string, options: CreateNodeOptions): NodeData {
    const info = nodeTypeInfo(type);
    if (!info) throw invalidArgument(`Unknown object type: ${type}`);
    const id = this.state.nextId++;
    const node: NodeData = {
      id,
      name: uniqueName(options.name, (name) => this.nameTaken(name)),
      type,
      parent: null,
      children: [],
      attributes: defaultAttributes(type),
    };
    if (this.journal) recordNode(this.journal, node, true);
    this.state.nodes[String(id)] = node;
    this.#names().set(node.name, node);
    if (info.dag && options.parent !== undefined && options.parent !== null) {
      node.parent = options.parent;
      this.touch(this.node(options.parent)).children.push(id);
    }
    return node;
  }

  /** Creates a transform with one shape under it, named like Maya (`pSphere1`/`pSphereShape1`). */
  createTransformWithShape(
    shapeType: string,
    name: string,
    parent: number | null = null,
  ): { transform: NodeData; shape: NodeData } {
    const transform = this.createNode("transform", { name, parent });
    const shape = this.createNode(shapeType, {
      name: shapeNameFor(transform.name),
      parent: transform.id,
    });
    return { transform, shape };
  }

  /** True when a node is a DAG node. */
  isDag(node: NodeData): boolean {
    return nodeTypeInfo(node.type)?.dag ?? false;
  }

  /** True when a node is a shape. */
  isShape(node: NodeData): boolean {
    return nodeTypeInfo(node.type)?.shape ?? false;
  }

  /** `|parent|child` for DAG nodes; the name for dependency nodes. */
  fullPath(node: NodeData): string {
    if (!this.isDag(node)) return node.name;
    let path = "";
    for (let current: NodeData | undefined = node; current; ) {
      path = `|${current.name}${path}`;
      current = current.parent === null ? undefined : this.node(current.parent);
    }
    return path;
  }

  /** Children of a DAG node, in order. */
  children(node: NodeData): NodeData[] {
    return node.children.map((id) => this.node(id));
  }

  /** Descendants in depth-first order (parents before children). */
  descendants(node: NodeData): NodeData[] {
    const out: NodeData[] = [];
    for (const child of this.children(node)) out.push(child, ...this.descendants(child));
    return out;
  }

  /** Shapes directly under a transform (or the node itself if it is a shape). */
  shapes(node: NodeData): NodeData[] {
    if (this.isShape(node)) return [node];
    return this.children(node).filter((child) => this.isShape(child));
  }

  /** Moves a DAG node under `parent` (or the world) at `index` (end by default). */
  reparent(node: NodeData, parent: number | null): void {
    this.touch(node);
    if (node.parent !== null) {
      const old = this.touch(this.node(node.parent));
      old.children = old.children.filter((id) => id !== node.id);
    }
    node.parent = parent;
    if (parent !== null) this.touch(this.node(parent)).children.push(node.id);
  }

  /** Removes nodes (with their DAG descendants), their connections, selection and set membership. */
  remove(ids: Iterable<number>): void {
    const doomed = new Set<number>();
    for (const id of ids) {
      if (!this.state.nodes[String(id)]) continue;
      const node = this.node(id);
      doomed.add(id);
      for (const descendant of this.descendants(node)) doomed.add(descendant.id);
    }
    for (const id of doomed) {
      const node = this.state.nodes[String(id)];
      if (!node) continue;
      this.touch(node);
      if (node.parent !== null && !doomed.has(node.parent)) {
        const parent = this.touch(this.node(node.parent));
        parent.children = parent.children.filter((child) => child !== id);
      }
      delete this.state.nodes[String(id)];
      if (this.#byName?.get(node.name) === node) this.#byName.delete(node.name);
    }
    const state = this.state;
    state.connections = state.connections.filter(
      (c) => !doomed.has(c.sourceNode) && !doomed.has(c.destinationNode),
    );
    state.selection = state.selection.filter((id) => !doomed.has(id));
    for (const node of this.nodes()) {
      if (node.members?.some((id) => doomed.has(id))) {
        this.touch(node).members = (node.members ?? []).filter((id) => !doomed.has(id));
      }
    }
  }
}
