// Suggestions for an unknown command name: small edit distance, a shared prefix, or containment,
// compared case-insensitively.

function editDistance(a: string, b: string, cap: number): number {
  if (Math.abs(a.length - b.length) > cap) return cap + 1;
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      const value = Math.min(
        (previous[j] ?? 0) + 1,
        (current[j - 1] ?? 0) + 1,
        (previous[j - 1] ?? 0) + cost,
      );
      current.push(value);
      if (value < rowMin) rowMin = value;
    }
    if (rowMin > cap) return cap + 1;
    previous = current;
  }
  return previous[b.length] ?? cap + 1;
}

function sharedPrefix(a: string, b: string): number {
  let length = 0;
  while (length < a.length && length < b.length && a[length] === b[length]) length++;
  return length;
}

/** Up to `limit` names from `candidates` that look like `name`, best first. */
export function closestNames(name: string, candidates: Iterable<string>, limit = 3): string[] {
  const wanted = name.toLowerCase();
  const cap = Math.max(2, Math.floor(wanted.length / 3));
  const scored: Array<{ name: string; score: number }> = [];
  for (const candidate of candidates) {
    const lower = candidate.toLowerCase();
    const distance = editDistance(wanted, lower, cap);
    const prefix = sharedPrefix(wanted, lower);
    let score: number;
    if (distance <= cap) score = distance;
    else if (wanted.length >= 3 && (lower.includes(wanted) || wanted.includes(lower))) {
      score = cap + 1;
    } else if (prefix >= 4 || (prefix >= 3 && prefix === Math.min(wanted.length, lower.length))) {
      score = cap + 2 + (Math.max(wanted.length, lower.length) - prefix) / 100;
    } else continue;
    scored.push({ name: candidate, score });
  }
  scored.sort((a, b) => a.score - b.score || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return scored.slice(0, limit).map((entry) => entry.name);
}
