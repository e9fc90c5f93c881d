// The node attributes the policy knows by name: those Maya runs as code and those it reads as
// file names, from the generated rule data. The TypeScript wall has no scene, so it matches
// names only (the entries marked `anyNode`); the Maya side also checks node types.

/** One group of attributes of the rule data: node types, long name → short name (or null). */
export interface AttributeGroup {
  nodeTypes: string[];
  anyNode: boolean;
  attributes: Record<string, string | null>;
}

/** The long and short names of the groups that apply on any node. */
export function namesOnAnyNode(groups: readonly AttributeGroup[]): ReadonlySet<string> {
  const names = new Set<string>();
  for (const group of groups) {
    if (!group.anyNode) continue;
    for (const [long, short] of Object.entries(group.attributes)) {
      names.add(long);
      if (short !== null) names.add(short);
    }
  }
  return names;
}

/**
 * The attribute names a plug string carries: `|grp|ns:node.parent[0].child` gives `parent` and
 * `child` (indices dropped); a bare name (`preMel`, as `addAttr -ln` takes) gives itself.
 */
export function plugAttributeNames(plug: string): string[] {
  const dot = plug.indexOf(".");
  const path = dot === -1 ? plug : plug.slice(dot + 1);
  return path
    .split(".")
    .map((part) => part.replace(/\[[^\]]*\]/g, "").trim())
    .filter((part) => part !== "");
}
