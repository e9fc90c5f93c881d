import type { CommandRecord } from "../command-record.ts";
import { ownField } from "./keyword-fields.ts";
import { signatureParameters } from "./signature-parameters.ts";
import { identifierWords, rawWords } from "./split-words.ts";
import { fieldWeight, normalisedWeight, partStems } from "./term-weights.ts";

/** The arrays behind a {@link RankedIndex}. */
export interface IndexData {
  /** Term -> id. */
  termIds: Map<string, number>;
  /** Id -> term. */
  vocabulary: string[];
  /** Terms that are words rather than joined name runs: the candidates for prefix and typo matching. */
  words: string[];
  /** Term id -> start of its postings in `postingDocuments`; one extra entry ends the last. */
  postingStarts: Int32Array;
  /** All postings' documents, grouped by term, ascending within a term. */
  postingDocuments: Int32Array;
  /** The weight (before IDF) of each posting. */
  postingWeights: Float32Array;
  /** Per posting, whether the term is in the document's description (1) or not (0). */
  postingInDescription: Uint8Array;
  /** Per term, its inverse document frequency (BM25 form, always > 0). */
  idf: Float64Array;
  /** Document -> start of its name's distinct stem ids in `nameTerms`; one extra entry ends the last. */
  nameStarts: Int32Array;
  /** The term ids of each name's distinct stems, grouped by document. */
  nameTerms: Int32Array;
  /** Per document, its name's stems joined (polySphere -> polyspher). */
  nameKeys: string[];
  /**
   * Every indexed word part as written (lower-cased), with its stem (`spheres` -> `spher`): what
   * typo matching compares a query word with. Numbers map to `""`.
   */
  surfaces: ReadonlyMap<string, string>;
}

const asciiName = /^[\x20-\x7e]*$/;

// Which fields of a document hold a term, as a bit mask kept per posting.
const inName = 1;
const inSignature = 2;
const inDescription = 4;

/**
 * Builds the inverted index. Each posting records which fields hold the term; weights are set at
 * the end, once average field lengths are known. Term ids of a parameter name are memoised, since
 * the same flags recur across thousands of commands.
 *
 * The words of each `keywordFields` value join the signature's parameter names as one field (same
 * weight, one length): a word already among the parameters is not counted again, so listing every
 * flag beside a signature that shows the first 25 adds only the missing ones.
 */
export function buildIndex(
  records: readonly CommandRecord[],
  keywordFields: readonly string[] = [],
): IndexData {
  const termIds = new Map<string, number>();
  const vocabulary: string[] = [];
  // Postings in arrival order (document-major); regrouped by term at the end.
  const postings = new GrowableTriples();
  let lastDocument = new Int32Array(16384).fill(-1);
  let lastPosting = new Int32Array(16384);
  const parameters = new Map<string, Parameter>();
  // Keyword values of more than one word, split once.
  const keywordParameters = new Map<string, Parameter[]>();
  const partCache = new Map<string, string>();
  // Whole words recur far more than they are new (descriptions share most of theirs): each is
  // split and stemmed once.
  const wordCache = new Map<string, string[]>();
  const wordStems = (word: string): string[] => {
    let stems = wordCache.get(word);
    if (stems === undefined) {
      stems = partStems(word, partCache);
      wordCache.set(word, stems);
    }
    return stems;
  };
  // Per term id: 1 for a word, 0 for a joined name run only.
  let isWord = new Int32Array(16384);
  const intern = (term: string): number => {
    let id = termIds.get(term);
    if (id === undefined) {
      id = vocabulary.length;
      termIds.set(term, id);
      vocabulary.push(term);
      if (id >= lastDocument.length) {
        lastDocument = grow(lastDocument, -1);
        lastPosting = grow(lastPosting, 0);
        isWord = grow(isWord, 0);
      }
    }
    return id;
  };
  const internWord = (term: string): number => {
    const id = intern(term);
    isWord[id] = 1;
    return id;
  };
  const mark = (id: number, document: number, mask: number): void => {
    if (lastDocument[id] === document) {
      postings.orMask(lastPosting[id] as number, mask);
    } else {
      lastDocument[id] = document;
      lastPosting[id] = postings.push(id, document, mask);
    }
  };
  const parameter = (name: string): Parameter => {
    let found = parameters.get(name);
    if (found === undefined) {
      found = { ids: partStems(name, partCache).map(internWord), lastDocument: -1 };
      parameters.set(name, found);
    }
    return found;
  };
  const markParameter = (found: Parameter, document: number): void => {
    found.lastDocument = document;
    for (const id of found.ids) mark(id, document, inSignature);
  };
  // Marks the words of one keyword value not yet in this document's parameters; returns how many.
  const markKeywords = (text: string, document: number): number => {
    // Most values are one flag name, often one a signature or another command already listed.
    const known = parameters.get(text);
    if (known !== undefined) return markOnce(known, document);
    let found = keywordParameters.get(text);
    if (found === undefined) {
      const words = identifierWords(text);
      if (words.length === 1 && words[0] === text) return markOnce(parameter(text), document);
      found = words.map(parameter);
      keywordParameters.set(text, found);
    }
    let added = 0;
    for (const item of found) added += markOnce(item, document);
    return added;
  };
  const markOnce = (found: Parameter, document: number): number => {
    if (found.lastDocument === document) return 0;
    markParameter(found, document);
    return 1;
  };
  const count = records.length;
  const nameLengths = new Float64Array(count);
  const parameterCounts = new Float64Array(count);
  const nameStarts = new Int32Array(records.length + 1);
  const nameTermList: number[] = [];
  const nameKeys: string[] = [];
  for (let document = 0; document < count; document++) {
    const record = records[document] as CommandRecord;
    const parts: string[] = [];
    // identifierParts already splits ASCII names at separators; other scripts go word by word.
    if (asciiName.test(record.name)) parts.push(...partStems(record.name, partCache));
    else for (const word of rawWords(record.name)) parts.push(...wordStems(word));
    // Joined runs let "poly sphere", "polysphere" and "merge vertex" hit polySphere and
    // polyMergeVertex as one strong term.
    for (let start = 0; start < parts.length; start++) {
      let joined = parts[start] as string;
      mark(internWord(joined), document, inName);
      for (let end = start + 1; end < parts.length; end++) {
        joined += parts[end] as string;
        mark(intern(joined), document, inName);
      }
    }
    nameLengths[document] = Math.max(1, parts.length);
    for (const term of new Set(parts)) nameTermList.push(intern(term));
    nameStarts[document + 1] = nameTermList.length;
    nameKeys.push(parts.join(""));
    let parameterCount = 0;
    if (typeof record.signature === "string") {
      const names = signatureParameters(record.signature, record.name);
      parameterCount = names.length;
      for (const name of names) markParameter(parameter(name), document);
    }
    for (const field of keywordFields) {
      const value = ownField(record, field);
      // Values were checked when the record came in; a caller may have changed an array since.
      if (typeof value === "string") parameterCount += markKeywords(value, document);
      else if (Array.isArray(value)) {
        for (const text of value) {
          if (typeof text === "string") parameterCount += markKeywords(text, document);
        }
      }
    }
    parameterCounts[document] = parameterCount;
    if (typeof record.description === "string") {
      for (const word of rawWords(record.description)) {
        for (const term of wordStems(word)) {
          mark(internWord(term), document, inDescription);
        }
      }
    }
  }
  const averageName = average(nameLengths);
  const averageParameters = Math.max(1, average(parameterCounts));
  const nameWeights = nameLengths.map((length) =>
    normalisedWeight(fieldWeight.name, length / averageName),
  );
  const signatureWeights = parameterCounts.map((length) =>
    normalisedWeight(fieldWeight.signature, length / averageParameters),
  );
  // Counting sort by term id; arrival order keeps documents ascending within each term.
  const terms = vocabulary.length;
  const postingStarts = new Int32Array(terms + 1);
  for (let index = 0; index < postings.length; index++) {
    const term = postings.terms[index] as number;
    postingStarts[term + 1] = (postingStarts[term + 1] as number) + 1;
  }
  for (let term = 0; term < terms; term++) {
    postingStarts[term + 1] = (postingStarts[term + 1] as number) + (postingStarts[term] as number);
  }
  const next = postingStarts.slice(0, terms);
  const postingDocuments = new Int32Array(postings.length);
  const postingWeights = new Float32Array(postings.length);
  const postingInDescription = new Uint8Array(postings.length);
  for (let index = 0; index < postings.length; index++) {
    const term = postings.terms[index] as number;
    const document = postings.documents[index] as number;
    const mask = postings.masks[index] as number;
    const slot = next[term] as number;
    next[term] = slot + 1;
    postingDocuments[slot] = document;
    if (mask & inDescription) postingInDescription[slot] = 1;
    postingWeights[slot] = Math.max(
      mask & inName ? (nameWeights[document] as number) : 0,
      mask & inSignature ? (signatureWeights[document] as number) : 0,
      mask & inDescription ? fieldWeight.description : 0,
    );
  }
  const idf = new Float64Array(terms);
  for (let term = 0; term < terms; term++) {
    const df = (postingStarts[term + 1] as number) - (postingStarts[term] as number);
    idf[term] = Math.log(1 + (count - df + 0.5) / (df + 0.5));
  }
  return {
    termIds,
    vocabulary,
    words: vocabulary.filter((_, id) => isWord[id] === 1),
    postingStarts,
    postingDocuments,
    postingWeights,
    postingInDescription,
    idf,
    nameStarts,
    nameTerms: Int32Array.from(nameTermList),
    nameKeys,
    surfaces: partCache,
  };
}

// One parameter or flag name: its term ids, and the last document that listed it.
interface Parameter {
  ids: number[];
  lastDocument: number;
}

// Parallel growable typed arrays of (term, document, field mask) postings.
class GrowableTriples {
  terms: Int32Array<ArrayBuffer> = new Int32Array(65536);
  documents: Int32Array<ArrayBuffer> = new Int32Array(65536);
  masks: Uint8Array<ArrayBuffer> = new Uint8Array(65536);
  length = 0;

  push(term: number, document: number, mask: number): number {
    if (this.length === this.terms.length) {
      this.terms = grow(this.terms, 0);
      this.documents = grow(this.documents, 0);
      const masks = new Uint8Array(this.masks.length * 2);
      masks.set(this.masks);
      this.masks = masks;
    }
    this.terms[this.length] = term;
    this.documents[this.length] = document;
    this.masks[this.length] = mask;
    return this.length++;
  }

  orMask(index: number, mask: number): void {
    this.masks[index] = (this.masks[index] as number) | mask;
  }
}

function grow(array: Int32Array<ArrayBuffer>, fill: number): Int32Array<ArrayBuffer> {
  const larger = new Int32Array(array.length * 2).fill(fill);
  larger.set(array);
  return larger;
}

function average(values: Float64Array): number {
  if (values.length === 0) return 1;
  let sum = 0;
  for (const value of values) sum += value;
  return sum / values.length;
}
