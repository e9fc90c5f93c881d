// Selection and display: select, hide, showHidden.
import type { SceneCommandSpec } from "../command-spec.ts";
import type { MayaScene } from "../maya-scene.ts";
import { flattenNames } from "../naming.ts";

/** `select`: replace, add, deselect, toggle or clear the selection. */
export const select: SceneCommandSpec<MayaScene> = {
  name: "select",
  summary:
    "Select objects: replace (default), add, deselect (d), toggle (tgl), clear (cl), hierarchy (hi), all DAG objects (ado).",
  positional: "...objects: string[]",
  returns: "null",
  flags:
    "add addFirst|af deselect|d toggle|tgl clear|cl replace|r all allDagObjects|ado hierarchy|hi noExpand|ne",
  mutates: true,
  run(scene, call) {
    const graph = scene.graph;
    const { flags } = call;
    if (flags["clear"]) {
      scene.select([]);
      return null;
    }
    let nodes = flattenNames(call.args).map((name) => graph.resolve(name));
    if (flags["all"] || flags["allDagObjects"])
      nodes = graph.nodes().filter((node) => graph.isDag(node) && node.parent === null);
    if (flags["hierarchy"]) nodes = nodes.flatMap((node) => [node, ...graph.descendants(node)]);
    const current = graph.state.selection.map((id) => graph.node(id));
    if (flags["deselect"]) {
      scene.select(current.filter((node) => !nodes.includes(node)));
    } else if (flags["toggle"]) {
      scene.select([
        ...current.filter((node) => !nodes.includes(node)),
        ...nodes.filter((node) => !current.includes(node)),
      ]);
    } else if (flags["add"]) {
      scene.select([...current, ...nodes]);
    } else if (flags["addFirst"]) {
      scene.select([...nodes, ...current]);
    } else {
      scene.select(nodes);
    }
    return null;
  },
};

function visibilityCommand(name: string, visible: boolean): SceneCommandSpec<MayaScene> {
  return {
    name,
    summary: visible
      ? "Make objects (or the selection) visible; allObjects (all) shows everything."
      : "Hide objects (or the selection); allObjects (all) hides every top-level object.",
    positional: "...objects: string[]",
    returns: "null",
    flags: "allObjects|all",
    mutates: true,
    run(scene, call) {
      const graph = scene.graph;
      const nodes = call.flags["allObjects"]
        ? graph.nodes().filter((node) => graph.isDag(node) && (visible || node.parent === null))
        : scene.targets(call);
      for (const node of nodes) {
        const attribute = node.attributes["visibility"];
        if (attribute && !attribute.locked) {
          graph.touch(node);
          attribute.value = visible;
        }
      }
      return null;
    },
  };
}

/** `hide`: make objects invisible. */
export const hide: SceneCommandSpec<MayaScene> = visibilityCommand("hide", false);

/** `showHidden`: make objects visible again. */
export const showHidden: SceneCommandSpec<MayaScene> = visibilityCommand("showHidden", true);
