/** How many names a question shows before it says how many more there are. */
const shown = 10;

/**
 * `3 nodes: pSphere1, pSphere2, pSphere3`; past ten names, `25 nodes: a, …, j and 15 more`.
 * `noun` is the singular and plural, e.g. `["node", "nodes"]`.
 */
export function nameList(
  names: readonly string[],
  noun: readonly [singular: string, plural: string],
): string {
  const head = names.slice(0, shown).join(", ");
  const more = names.length > shown ? ` and ${names.length - shown} more` : "";
  return `${names.length} ${names.length === 1 ? noun[0] : noun[1]}: ${head}${more}`;
}
