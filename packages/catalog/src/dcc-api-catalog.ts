import { readFile } from "node:fs/promises";
import { CatalogFileError } from "./catalog-file-error.ts";
import type { AddCommandOptions, CommandRecord } from "./command-record.ts";
import { DEFAULT_SYNONYMS, type SynonymTable } from "./default-synonyms.ts";
import { checkKeywordFields } from "./internal/keyword-fields.ts";
import { normaliseRecord, withTextFields } from "./internal/normalise-record.ts";
import { overlapHaystack, overlapSearch } from "./internal/overlap-search.ts";
import { parseCatalogJson } from "./internal/parse-catalog-json.ts";
import { parseCatalogText } from "./internal/parse-catalog-text.ts";
import { RankedIndex } from "./internal/ranked-index.ts";
import { buildSynonymMap, type SynonymMap } from "./internal/synonym-groups.ts";
import { RankerError } from "./ranker-error.ts";
import { SearchLimitError } from "./search-limit-error.ts";
import { searchLimits } from "./search-limits.ts";

/** The two search algorithms: `"ranked"` (default) and the upstream `"overlap"`. */
export type RankerName = "ranked" | "overlap";

/** Options for {@link DccApiCatalog}. */
export interface DccApiCatalogOptions {
  /** Command records; they come first, in order. */
  commands?: Iterable<CommandRecord>;
  /** Plain-text catalog, one `name - description` line per command, added after `commands`. */
  catalogText?: string;
  /** Search algorithm; defaults to `"ranked"`. */
  ranker?: RankerName;
  /** Extra synonym groups for the `"ranked"` ranker, added to {@link DEFAULT_SYNONYMS}. */
  synonyms?: SynonymTable;
  /**
   * Further record fields the `"ranked"` ranker indexes like the signature's parameter and flag
   * names (same weight, same splitting and stemming), e.g. `["flags"]` for records whose
   * signature shows only some flags but whose `flags` field lists them all. Each field of a record
   * may be absent, a string or an array of strings; anything else is a {@link CommandRecordError}.
   * The `"overlap"` ranker ignores them (it stays upstream's algorithm). Defaults to `[]`.
   */
  keywordFields?: readonly string[];
}

/** Options for {@link DccApiCatalog.search}. */
export interface SearchOptions {
  /** Maximum number of results, an integer from 1 to 50; defaults to 10 ({@link searchLimits}). */
  limit?: number;
}

/**
 * A searchable catalog of one DCC's commands: what `dcc_search` queries. Records come from
 * `commands`, then `catalogText`, then {@link DccApiCatalog.addCommand}. A command whose name is
 * already present replaces the earlier entry in place (same position, new record), so a catalog
 * never holds two commands with one name.
 */
export class DccApiCatalog implements Iterable<CommandRecord> {
  /** The DCC this catalog describes, e.g. `"maya"`. */
  readonly dccName: string;
  /** The active ranker. */
  readonly ranker: RankerName;
  /** The extra record fields the `"ranked"` ranker indexes, distinct, in the order given. */
  readonly keywordFields: readonly string[];
  private readonly entries = new Map<string, CommandRecord>();
  private readonly synonyms: SynonymMap;
  // Built lazily on the first search after a change.
  private records: CommandRecord[] | undefined;
  private haystacks: string[] | undefined;
  private index: RankedIndex | undefined;

  /**
   * Creates a catalog for `dccName` from `commands`, then `catalogText`.
   * @throws {@link CatalogLineError} when a `catalogText` line has no usable command name.
   * @throws {@link CommandRecordError} when a record is not an object, its name, signature or
   * description not a string, or a keyword field neither a string nor an array of strings.
   * @throws {@link RankerError} for an unknown `ranker`.
   * @throws {@link KeywordFieldsError} when `keywordFields` is not an array of extra field names.
   */
  constructor(dccName: string, options: DccApiCatalogOptions = {}) {
    this.dccName = dccName;
    const ranker: unknown = options.ranker ?? "ranked";
    if (ranker !== "ranked" && ranker !== "overlap") throw new RankerError({ ranker });
    this.ranker = ranker;
    this.keywordFields = checkKeywordFields(options.keywordFields);
    this.synonyms = buildSynonymMap(
      options.synonyms === undefined ? [DEFAULT_SYNONYMS] : [DEFAULT_SYNONYMS, options.synonyms],
    );
    let position = 0;
    for (const record of options.commands ?? []) {
      this.put(normaliseRecord(record, position++, this.keywordFields));
    }
    if (options.catalogText !== undefined) {
      for (const record of parseCatalogText(options.catalogText)) {
        this.put(withTextFields(record, record.name));
      }
    }
  }

  /**
   * Loads a catalog from a JSON file holding an array of command records, or one record per line
   * (JSON Lines).
   * @throws {@link CatalogFileError} when the file cannot be read or parsed.
   */
  static async fromJsonFile(
    dccName: string,
    path: string,
    options: Omit<DccApiCatalogOptions, "commands"> = {},
  ): Promise<DccApiCatalog> {
    const commands = parseCatalogJson(path, await readCatalogFile(path));
    // Records are validated one by one as the catalog takes them in.
    return new DccApiCatalog(dccName, { ...options, commands: commands as CommandRecord[] });
  }

  /** Number of commands. */
  get size(): number {
    return this.entries.size;
  }

  /** The command named `name`, or `undefined`. */
  get(name: string): CommandRecord | undefined {
    const record = this.entries.get(name);
    return record === undefined ? undefined : { ...record };
  }

  /** Adds a command (or replaces the one with the same name) with all three fields set. */
  addCommand(name: string, options: AddCommandOptions = {}): void {
    this.put(
      normaliseRecord(
        { name, signature: options.signature ?? "", description: options.description ?? "" },
        undefined,
      ),
    );
  }

  /** Every command, in catalog order. */
  [Symbol.iterator](): Iterator<CommandRecord> {
    return [...this.entries.values()].map((record) => ({ ...record }))[Symbol.iterator]();
  }

  /**
   * The commands that best match `query`, best first, at most `limit`. Commands that match no
   * query word are never returned; an empty or stopword-only query returns `[]`.
   * @throws {@link SearchLimitError} when `limit` is not an integer from 1 to 50.
   */
  search(query: string, options: SearchOptions = {}): CommandRecord[] {
    const limit = options.limit ?? searchLimits.defaultLimit;
    if (!Number.isInteger(limit) || limit < 1 || limit > searchLimits.maxLimit) {
      throw new SearchLimitError({ limit });
    }
    if (typeof query !== "string") return [];
    const records = this.currentRecords();
    if (this.ranker === "overlap") {
      this.haystacks ??= records.map(overlapHaystack);
      return overlapSearch(records, this.haystacks, query, limit).map((record) => ({ ...record }));
    }
    this.index ??= new RankedIndex(records, this.synonyms, this.keywordFields);
    return this.index
      .search(query, limit)
      .map((position) => ({ ...records[position] }) as CommandRecord);
  }

  private currentRecords(): CommandRecord[] {
    this.records ??= [...this.entries.values()];
    return this.records;
  }

  private put(record: CommandRecord): void {
    this.entries.set(record.name, record);
    this.records = undefined;
    this.haystacks = undefined;
    this.index = undefined;
  }
}

async function readCatalogFile(path: string): Promise<string> {
  try {
    return await readFile(path, "utf8");
  } catch (cause) {
    throw new CatalogFileError({ path, message: "the file cannot be read", cause });
  }
}
