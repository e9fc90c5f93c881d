import { compareCodePoints } from "./compare-code-points.ts";

/**
 * The best `limit` documents seen so far, best first: score descending, then shorter name, then
 * name by code point. Cheaper than sorting every matching document.
 */
export class TopK {
  private readonly entries: Entry[] = [];
  private readonly limit: number;
  private readonly names: readonly string[];

  constructor(limit: number, names: readonly string[]) {
    this.limit = limit;
    this.names = names;
  }

  /** Considers `document` with `score`; keeps it if it ranks among the best `limit`. */
  offer(document: number, score: number): void {
    const { entries, limit } = this;
    if (entries.length === limit && !this.before(document, score, entries[limit - 1] as Entry)) {
      return;
    }
    let index = entries.length === limit ? limit - 1 : entries.length;
    if (entries.length === limit) entries.pop();
    while (index > 0 && this.before(document, score, entries[index - 1] as Entry)) index--;
    entries.splice(index, 0, { document, score });
  }

  /** The kept documents, best first. */
  documents(): number[] {
    return this.entries.map((entry) => entry.document);
  }

  private before(document: number, score: number, other: Entry): boolean {
    if (score !== other.score) return score > other.score;
    const name = this.names[document] as string;
    const otherName = this.names[other.document] as string;
    if (name.length !== otherName.length) return name.length < otherName.length;
    return compareCodePoints(name, otherName) < 0;
  }
}

interface Entry {
  document: number;
  score: number;
}
