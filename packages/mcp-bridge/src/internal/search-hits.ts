// Every search result on the wire carries `name`, `signature` and `description` (the seed's shape),
// whichever executor produced it: a missing or non-text field becomes "", never an absent key.

const textFields = ["name", "signature", "description"] as const;

/**
 * `results` with each object result given the three text fields first (`""` when missing or not
 * a string) and its other fields after; anything that is not an array is returned unchanged.
 */
export function withSearchHitFields(results: unknown): unknown {
  if (!Array.isArray(results)) return results;
  return results.map((hit: unknown) => {
    if (typeof hit !== "object" || hit === null || Array.isArray(hit)) return hit;
    const record = hit as Record<string, unknown>;
    const shaped: Record<string, unknown> = {};
    for (const field of textFields) {
      const value = record[field];
      shaped[field] = typeof value === "string" ? value : "";
    }
    for (const [key, value] of Object.entries(record)) {
      if (!(textFields as readonly string[]).includes(key)) shaped[key] = value;
    }
    return shaped;
  });
}
