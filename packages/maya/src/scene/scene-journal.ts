import { cloneNode } from "./clone-state.ts";
import type { ConnectionData, NodeData, PlaybackData, SceneState } from "./scene-state.ts";

/**
 * What one command (or undo chunk) changed, as before-images: each node it touched as it was
 * (`null` for a node it created), and the scene-wide fields. Applying a journal restores those
 * images and returns the inverse journal, so the same operation serves undo, redo and the
 * rollback of a failed command. Cost is proportional to what changed, not to the scene's size.
 */
export interface SceneJournal {
  nodes: Map<number, NodeData | null>;
  nextId: number;
  selection: number[];
  connections: ConnectionData[];
  currentTime: number;
  playback: PlaybackData;
}

/** Starts a journal of `state`: scene-wide fields copied, no node touched yet. */
export function startJournal(state: SceneState): SceneJournal {
  return {
    nodes: new Map(),
    nextId: state.nextId,
    // Connection records are never changed in place, so copying the array is enough.
    selection: [...state.selection],
    connections: [...state.connections],
    currentTime: state.currentTime,
    playback: { ...state.playback },
  };
}

/** Records `node`'s before-image the first time the journal sees it. */
export function recordNode(journal: SceneJournal, node: NodeData, created: boolean): void {
  if (!journal.nodes.has(node.id)) journal.nodes.set(node.id, created ? null : cloneNode(node));
}

/** Folds a later journal into an earlier one (undo chunks): the earliest image of each node wins. */
export function mergeJournal(into: SceneJournal, later: SceneJournal): void {
  for (const [id, image] of later.nodes) if (!into.nodes.has(id)) into.nodes.set(id, image);
}

/** Restores a journal's images into `state`; returns the journal that undoes this. */
export function applyJournal(state: SceneState, journal: SceneJournal): SceneJournal {
  const inverse = startJournal(state);
  for (const [id, image] of journal.nodes) {
    const key = String(id);
    // The live node leaves the state here, so the inverse can keep it without copying.
    inverse.nodes.set(id, state.nodes[key] ?? null);
    if (image === null) delete state.nodes[key];
    else state.nodes[key] = image;
  }
  state.nextId = journal.nextId;
  state.selection = journal.selection;
  state.connections = journal.connections;
  state.currentTime = journal.currentTime;
  state.playback = journal.playback;
  return inverse;
}
