import type { CommandRecord } from "../command-record.ts";
import { compareCodePoints } from "./compare-code-points.ts";
import { boundedEditDistance } from "./edit-distance.ts";
import { queryTerms } from "./query-terms.ts";
import type { SynonymMap } from "./synonym-groups.ts";
import { type CommandTerms, commandTerms, fieldWeight } from "./term-weights.ts";

// Match qualities relative to an exact stem match.
const synonymQuality = 0.6;
const prefixQuality = 0.5;
const typoQuality = [1, 0.45, 0.3] as const;
const maxPrefixTerms = 40;
// Signature length normalisation (BM25's b): a flag match in a command with hundreds of flags
// says less than one in a command with five.
const lengthNormalisation = 0.5;

/**
 * The precomputed index behind the `"ranked"` ranker: an inverted index from stems to weighted
 * postings, a sorted vocabulary for prefix and typo lookup, and each name's stems.
 */
export class RankedIndex {
  private readonly count: number;
  private readonly names: readonly string[];
  private readonly nameKeys: readonly string[];
  private readonly nameTerms: readonly Int32Array[];
  private readonly termIds = new Map<string, number>();
  private readonly vocabulary: string[] = [];
  private readonly sortedVocabulary: string[];
  private readonly postingDocuments: Int32Array[] = [];
  private readonly postingWeights: Float32Array[] = [];
  private readonly idf: Float64Array;
  private readonly synonyms: SynonymMap;
  private readonly stemCache = new Map<string, string>();
  // Scratch buffers reused by every search (searches are synchronous).
  private readonly scores: Float64Array;
  private readonly best: Float64Array;
  private readonly matchedTerms: Uint8Array;

  constructor(records: readonly CommandRecord[], synonyms: SynonymMap) {
    this.count = records.length;
    this.synonyms = synonyms;
    this.names = records.map((record) => record.name);
    this.nameKeys = records.map((record) => record.name.toLowerCase());
    const all: CommandTerms[] = records.map((record) => commandTerms(record, this.stemCache));
    const totalParameters = all.reduce((sum, terms) => sum + terms.parameterCount, 0);
    const averageParameters = Math.max(1, totalParameters / Math.max(1, all.length));
    const documents: number[][] = [];
    const weights: number[][] = [];
    const nameTerms: Int32Array[] = [];
    for (let document = 0; document < all.length; document++) {
      const terms = all[document] as CommandTerms;
      const ratio = terms.parameterCount / averageParameters;
      const signature =
        fieldWeight.signature / (1 - lengthNormalisation + lengthNormalisation * ratio);
      for (const term of terms.signatureStems) {
        const previous = terms.weights.get(term);
        if (previous === undefined || previous < signature) terms.weights.set(term, signature);
      }
      for (const [term, weight] of terms.weights) {
        const id = this.intern(term);
        if (id === documents.length) {
          documents.push([]);
          weights.push([]);
        }
        (documents[id] as number[]).push(document);
        (weights[id] as number[]).push(weight);
      }
      nameTerms.push(Int32Array.from(terms.nameStems.map((term) => this.intern(term))));
    }
    // Name stems with no posting of their own cannot occur; intern() above added them first.
    this.nameTerms = nameTerms;
    this.idf = new Float64Array(documents.length);
    for (let id = 0; id < documents.length; id++) {
      const list = documents[id] as number[];
      this.postingDocuments.push(Int32Array.from(list));
      this.postingWeights.push(Float32Array.from(weights[id] as number[]));
      const df = list.length;
      this.idf[id] = Math.log(1 + (this.count - df + 0.5) / (df + 0.5));
    }
    this.sortedVocabulary = [...this.vocabulary].sort();
    this.scores = new Float64Array(this.count);
    this.best = new Float64Array(this.count);
    this.matchedTerms = new Uint8Array(this.count);
  }

  /** Indices of the best `limit` records for `query`, best first; never a zero score. */
  search(query: string, limit: number): number[] {
    const { stems, phrases } = queryTerms(query, this.stemCache);
    if (stems.length === 0 || this.count === 0) return [];
    const { scores, best, matchedTerms } = this;
    const touched: number[] = [];
    const termQuality = new Map<number, number>();
    for (const stem of stems) {
      const variants = this.expand(stem);
      const hit: number[] = [];
      for (const [id, quality] of variants) {
        const previous = termQuality.get(id);
        if (previous === undefined || previous < quality) termQuality.set(id, quality);
        const documents = this.postingDocuments[id] as Int32Array;
        const weights = this.postingWeights[id] as Float32Array;
        const factor = (this.idf[id] as number) * quality;
        for (let index = 0; index < documents.length; index++) {
          const document = documents[index] as number;
          const value = (weights[index] as number) * factor;
          const current = best[document] as number;
          if (current === 0) hit.push(document);
          if (value > current) best[document] = value;
        }
      }
      for (const document of hit) {
        if (matchedTerms[document] === 0) touched.push(document);
        scores[document] = (scores[document] as number) + (best[document] as number);
        matchedTerms[document] = (matchedTerms[document] as number) + 1;
        best[document] = 0;
      }
    }
    const ranked: { document: number; score: number }[] = [];
    for (const document of touched) {
      const coverage = (matchedTerms[document] as number) / stems.length;
      let score = (scores[document] as number) * (0.5 + 0.5 * coverage);
      const parts = this.nameTerms[document] as Int32Array;
      if (parts.length > 0) {
        let covered = 0;
        for (const id of parts) if (termQuality.has(id)) covered++;
        score *= 1 + (0.5 * covered) / parts.length;
      }
      if (phrases.has(this.nameKeys[document] as string)) score *= 1.5;
      scores[document] = 0;
      matchedTerms[document] = 0;
      if (score > 0) ranked.push({ document, score });
    }
    ranked.sort(
      (left, right) =>
        right.score - left.score ||
        (this.names[left.document] as string).length -
          (this.names[right.document] as string).length ||
        compareCodePoints(
          this.names[left.document] as string,
          this.names[right.document] as string,
        ),
    );
    return ranked.slice(0, limit).map((entry) => entry.document);
  }

  /** Index terms one query stem matches: itself, its synonyms, longer words it starts, typos. */
  private expand(stem: string): Map<number, number> {
    const variants = new Map<number, number>();
    const put = (term: string, quality: number): void => {
      const id = this.termIds.get(term);
      if (id === undefined) return;
      const previous = variants.get(id);
      if (previous === undefined || previous < quality) variants.set(id, quality);
    };
    put(stem, 1);
    for (const synonym of this.synonyms.get(stem) ?? []) put(synonym, synonymQuality);
    if (stem.length >= 3) {
      let index = lowerBound(this.sortedVocabulary, stem);
      for (let found = 0; found < maxPrefixTerms && index < this.sortedVocabulary.length; index++) {
        const term = this.sortedVocabulary[index] as string;
        if (!term.startsWith(stem)) break;
        if (term !== stem) {
          put(term, prefixQuality * Math.sqrt(stem.length / term.length));
          found++;
        }
      }
    }
    if (variants.size === 0 && stem.length >= 4) {
      const maxEdits = stem.length >= 8 ? 2 : 1;
      for (const term of this.vocabulary) {
        if (Math.abs(term.length - stem.length) > maxEdits || term.length < 3) continue;
        const distance = boundedEditDistance(stem, term, maxEdits);
        if (distance <= maxEdits) put(term, typoQuality[distance] as number);
      }
    }
    return variants;
  }

  private intern(term: string): number {
    let id = this.termIds.get(term);
    if (id === undefined) {
      id = this.vocabulary.length;
      this.termIds.set(term, id);
      this.vocabulary.push(term);
    }
    return id;
  }
}

function lowerBound(sorted: readonly string[], value: string): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((sorted[middle] as string) < value) low = middle + 1;
    else high = middle;
  }
  return low;
}
