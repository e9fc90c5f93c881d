// Optimal string alignment distance (Levenshtein plus adjacent transpositions), cut off early:
// callers only ask whether two words are within one or two edits. Rows are reused between calls.

let rows: [Int32Array, Int32Array, Int32Array] = [
  new Int32Array(64),
  new Int32Array(64),
  new Int32Array(64),
];

/** The edit distance between `left` and `right`, or `max + 1` once it exceeds `max`. */
export function boundedEditDistance(left: string, right: string, max: number): number {
  if (Math.abs(left.length - right.length) > max) return max + 1;
  const width = right.length + 1;
  if (rows[0].length < width) {
    rows = [new Int32Array(width), new Int32Array(width), new Int32Array(width)];
  }
  let [previous2, previous, current] = rows;
  for (let j = 0; j < width; j++) previous[j] = j;
  for (let i = 1; i <= left.length; i++) {
    current[0] = i;
    let rowMin = i;
    const a = left.charCodeAt(i - 1);
    for (let j = 1; j < width; j++) {
      const b = right.charCodeAt(j - 1);
      let value = Math.min(
        (previous[j] as number) + 1,
        (current[j - 1] as number) + 1,
        (previous[j - 1] as number) + (a === b ? 0 : 1),
      );
      if (i > 1 && j > 1 && a === right.charCodeAt(j - 2) && left.charCodeAt(i - 2) === b) {
        value = Math.min(value, (previous2[j - 2] as number) + 1);
      }
      current[j] = value;
      if (value < rowMin) rowMin = value;
    }
    if (rowMin > max) return max + 1;
    [previous2, previous, current] = [previous, current, previous2];
  }
  const distance = previous[right.length] as number;
  return distance > max ? max + 1 : distance;
}
