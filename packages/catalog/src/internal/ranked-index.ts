import type { CommandRecord } from "../command-record.ts";
import { buildIndex } from "./build-index.ts";
import { boundedEditDistance } from "./edit-distance.ts";
import { type QueryWordParts, queryTerms } from "./query-terms.ts";
import type { SynonymMap } from "./synonym-groups.ts";
import { TopK } from "./top-k.ts";

// Match qualities relative to an exact stem match.
const synonymQuality = 0.6;
const prefixQuality = 0.5;
const typoQuality = [1, 0.45, 0.3] as const;
const abbreviationQuality = 0.5;
const compoundQuality = 0.5;
const minAbbreviation = 3;
const maxPrefixTerms = 40;
// Prefix matching needs at least this many characters, and buckets words by them.
const prefixKey = 3;
const maxQueryCache = 10_000;
// Generic verbs ("get the type of a node") start many command names; the noun should decide.
const lightVerbs: ReadonlySet<string> = new Set([
  "get",
  "set",
  "creat",
  "make",
  "add",
  "new",
  "list",
  "query",
  "put",
  "do",
  "use",
]);
const lightVerbWeight = 0.7;
// A command whose whole name the query covers (polySphere for "poly sphere") scores up to 2x.
const nameCoverageBonus = 1;
// A description that holds every query word scores up to 2x, squared so that a few words count
// little: a sentence that says what the command is for is strong evidence when it says all of it.
const descriptionCoverageBonus = 1;
// A query that names the command outright ("polySphere", "poly sphere") multiplies its score.
const namedBonus = 1.5;
const matchedBit = 1;
const namedBit = 2;

/**
 * The precomputed index behind the `"ranked"` ranker: an inverted index from stems to weighted
 * postings, word buckets for prefix and typo lookup, and each name's stems.
 */
export class RankedIndex {
  private readonly count: number;
  private readonly names: readonly string[];
  private readonly nameKeyIds: Int32Array;
  private readonly termFlags: Uint8Array;
  private readonly nameStarts: Int32Array;
  private readonly nameTerms: Int32Array;
  private readonly termIds: Map<string, number>;
  // Word terms (not joined name runs), for prefix and typo matching.
  private readonly words: string[];
  // Word terms by their first three characters, for prefix matching without a sorted list.
  private readonly prefixBuckets = new Map<string, string[]>();
  private readonly postingStarts: Int32Array;
  private readonly postingDocuments: Int32Array;
  private readonly postingWeights: Float32Array;
  private readonly postingInDescription: Uint8Array;
  private readonly idf: Float64Array;
  private readonly synonyms: SynonymMap;
  private readonly queryCache = new Map<string, QueryWordParts>();
  // Indexed word parts as written -> their stems, for typo matching.
  private readonly surfaces: ReadonlyMap<string, string>;
  // Indexed word parts by first character, for typo matching; built on the first unknown word.
  private byInitial: Map<string, string[]> | undefined;
  // Typo corrections found per unknown query word (stem -> quality), emptied with the query cache.
  private readonly typoCache = new Map<string, ReadonlyMap<string, number>>();
  // Scratch buffers reused by every search (searches are synchronous).
  private readonly scores: Float64Array;
  private readonly best: Float64Array;
  private readonly matchedTerms: Uint8Array;
  // Per document, how many query words its description holds (by any variant), and whether the
  // word being accumulated is one of them.
  private readonly describedTerms: Uint8Array;
  private readonly describedNow: Uint8Array;

  constructor(
    records: readonly CommandRecord[],
    synonyms: SynonymMap,
    keywordFields: readonly string[] = [],
  ) {
    this.count = records.length;
    this.synonyms = synonyms;
    this.names = records.map((record) => record.name);
    const data = buildIndex(records, keywordFields);
    this.termIds = data.termIds;
    this.postingStarts = data.postingStarts;
    this.postingDocuments = data.postingDocuments;
    this.postingWeights = data.postingWeights;
    this.postingInDescription = data.postingInDescription;
    this.idf = data.idf;
    this.nameStarts = data.nameStarts;
    this.nameTerms = data.nameTerms;
    this.nameKeyIds = Int32Array.from(data.nameKeys, (key) => data.termIds.get(key) ?? -1);
    this.termFlags = new Uint8Array(data.vocabulary.length);
    this.words = data.words;
    this.surfaces = data.surfaces;
    for (const term of this.words) {
      if (term.length <= prefixKey) continue;
      const key = term.slice(0, prefixKey);
      const bucket = this.prefixBuckets.get(key);
      if (bucket === undefined) this.prefixBuckets.set(key, [term]);
      else bucket.push(term);
    }
    this.scores = new Float64Array(this.count);
    this.best = new Float64Array(this.count);
    this.matchedTerms = new Uint8Array(this.count);
    this.describedTerms = new Uint8Array(this.count);
    this.describedNow = new Uint8Array(this.count);
  }

  /** Indices of the best `limit` records for `query`, best first; never a zero score. */
  search(query: string, limit: number): number[] {
    // Query words get their own memo, emptied when it grows, so odd queries cannot pile up.
    if (this.queryCache.size > maxQueryCache) this.queryCache.clear();
    if (this.typoCache.size > maxQueryCache) this.typoCache.clear();
    const { stems, surfaces, compounds } = queryTerms(query, this.queryCache);
    if (stems.length === 0 || this.count === 0) return [];
    const { scores, matchedTerms, describedTerms } = this;
    const touched: number[] = [];
    // Per term flags for this query: 1 = matched by a query word, 2 = a query word or joined
    // run equals it (so a name equal to it is named outright). Cleared before returning.
    const { termFlags, nameStarts, nameTerms } = this;
    const flagged: number[] = [];
    const flag = (id: number, bit: number): void => {
      if (termFlags[id] === 0) flagged.push(id);
      termFlags[id] = (termFlags[id] as number) | bit;
    };
    for (const [position, stem] of stems.entries()) {
      const variants = this.expand(stem, surfaces[position] as string);
      if (lightVerbs.has(stem)) {
        for (const [id, quality] of variants) variants.set(id, quality * lightVerbWeight);
      }
      for (const id of variants.keys()) flag(id, matchedBit);
      this.accumulate(variants, touched, true);
    }
    // A joined pair or triple that is itself a term (a name run) adds its own score.
    for (const compound of compounds) {
      const id = this.termIds.get(compound);
      if (id !== undefined) this.accumulate(new Map([[id, compoundQuality]]), touched, false);
    }
    // "set the playback range" does not name the `sets` command: a lone generic verb never does.
    for (const key of [...stems, ...compounds]) {
      const id = stems.length > 1 && lightVerbs.has(key) ? undefined : this.termIds.get(key);
      if (id !== undefined) flag(id, namedBit);
    }
    const top = new TopK(limit, this.names);
    for (const document of touched) {
      const coverage = (matchedTerms[document] as number) / stems.length;
      let score = (scores[document] as number) * (0.5 + 0.5 * coverage);
      const start = nameStarts[document] as number;
      const end = nameStarts[document + 1] as number;
      if (end > start) {
        let covered = 0;
        for (let index = start; index < end; index++) {
          if ((termFlags[nameTerms[index] as number] as number) & matchedBit) covered++;
        }
        score *= 1 + (nameCoverageBonus * covered) / (end - start);
      }
      const described = (describedTerms[document] as number) / stems.length;
      score *= 1 + descriptionCoverageBonus * described * described;
      describedTerms[document] = 0;
      const key = this.nameKeyIds[document] as number;
      if (key >= 0 && (termFlags[key] as number) & namedBit) score *= namedBonus;
      scores[document] = 0;
      matchedTerms[document] = 0;
      if (score > 0) top.offer(document, score);
    }
    for (const id of flagged) termFlags[id] = 0;
    return top.documents();
  }

  // Adds, per document, the best of `variants` for one query term to its score.
  private accumulate(variants: Map<number, number>, touched: number[], counts: boolean): void {
    const { scores, best, matchedTerms, postingDocuments, postingWeights, postingStarts } = this;
    const { describedTerms, describedNow, postingInDescription } = this;
    const hit: number[] = [];
    for (const [id, quality] of variants) {
      const factor = (this.idf[id] as number) * quality;
      const end = postingStarts[id + 1] as number;
      for (let index = postingStarts[id] as number; index < end; index++) {
        const document = postingDocuments[index] as number;
        if (counts && postingInDescription[index] === 1) describedNow[document] = 1;
        const value = (postingWeights[index] as number) * factor;
        const current = best[document] as number;
        if (current === 0) hit.push(document);
        if (value > current) best[document] = value;
      }
    }
    for (const document of hit) {
      if (matchedTerms[document] === 0 && scores[document] === 0) touched.push(document);
      scores[document] = (scores[document] as number) + (best[document] as number);
      if (counts) matchedTerms[document] = (matchedTerms[document] as number) + 1;
      if (describedNow[document] === 1) {
        describedTerms[document] = (describedTerms[document] as number) + 1;
        describedNow[document] = 0;
      }
      best[document] = 0;
    }
  }

  /**
   * Index terms one query stem matches: itself, its synonyms, longer terms it starts, shorter
   * terms that start it (obj for object, attr for attribute), and, when the word is unknown and
   * starts no indexed word, words one or two typing errors away from it as typed (`surface`), with
   * their synonyms.
   */
  private expand(stem: string, surface: string): Map<number, number> {
    const variants = new Map<number, number>();
    const put = (term: string, quality: number): void => {
      const id = this.termIds.get(term);
      if (id === undefined) return;
      const previous = variants.get(id);
      if (previous === undefined || previous < quality) variants.set(id, quality);
    };
    put(stem, 1);
    const synonyms = this.synonyms.get(stem) ?? [];
    for (const synonym of synonyms) put(synonym, synonymQuality);
    let prefixes = 0;
    if (stem.length >= prefixKey) {
      for (const term of this.prefixBuckets.get(stem.slice(0, prefixKey)) ?? []) {
        if (term.length > stem.length && term.startsWith(stem)) {
          put(term, prefixQuality * Math.sqrt(stem.length / term.length));
          if (++prefixes === maxPrefixTerms) break;
        }
      }
    }
    // An unknown word that starts no indexed word may be a typo, even when a shorter word starts
    // it ("spe" in "spehre", "cone" in "conect"); if it is one, that shorter word is no
    // abbreviation of it.
    const known = this.termIds.has(stem) || synonyms.some((synonym) => this.termIds.has(synonym));
    let corrected = false;
    if (!known && prefixes === 0 && surface.length >= 4) {
      for (const [term, quality] of this.typos(surface)) {
        corrected = true;
        put(term, quality);
        for (const synonym of this.synonyms.get(term) ?? []) put(synonym, quality * synonymQuality);
      }
    }
    if (!corrected) {
      for (let length = minAbbreviation; length < stem.length; length++) {
        put(stem.slice(0, length), abbreviationQuality * Math.sqrt(length / stem.length));
      }
    }
    return variants;
  }

  // Stems of the indexed words one edit from `surface` (two from eight letters), best quality
  // each. Typos rarely hit the first letter; keeping it cuts the scan to one bucket.
  private typos(surface: string): ReadonlyMap<string, number> {
    let found = this.typoCache.get(surface);
    if (found !== undefined) return found;
    const corrections = new Map<string, number>();
    const maxEdits = surface.length >= 8 ? 2 : 1;
    for (const word of this.initialBuckets().get(surface[0] as string) ?? []) {
      if (Math.abs(word.length - surface.length) > maxEdits) continue;
      const distance = boundedEditDistance(surface, word, maxEdits);
      if (distance > maxEdits) continue;
      const term = this.surfaces.get(word) as string;
      const quality = typoQuality[distance] as number;
      if ((corrections.get(term) ?? 0) < quality) corrections.set(term, quality);
    }
    found = corrections;
    this.typoCache.set(surface, found);
    return found;
  }

  private initialBuckets(): Map<string, string[]> {
    if (this.byInitial === undefined) {
      this.byInitial = new Map();
      for (const [word, term] of this.surfaces) {
        if (word.length < 3 || term === "") continue;
        const bucket = this.byInitial.get(word[0] as string);
        if (bucket === undefined) this.byInitial.set(word[0] as string, [word]);
        else bucket.push(word);
      }
    }
    return this.byInitial;
  }
}
