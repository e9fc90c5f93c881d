import { DccApiCatalog, type RankerName, type SynonymTable } from "@dcc/catalog";
import { mayaCommands } from "./maya-commands.ts";
import { MAYA_SYNONYMS } from "./maya-synonyms.ts";

/** Options for {@link createMayaCatalog}. */
export interface MayaCatalogOptions {
  /** Search algorithm; defaults to `"ranked"`. */
  ranker?: RankerName;
  /** Extra synonym groups, added to {@link MAYA_SYNONYMS} (and the catalog's general ones). */
  synonyms?: SynonymTable;
  /** Leave the hand-written descriptions out (signature-only catalog); defaults to `false`. */
  withoutDescriptions?: boolean;
}

/**
 * Builds the reference Maya catalog: all 1,469 `maya.cmds` commands with readable
 * TypeScript-like signatures and, for the most used ones, one-line descriptions, searched with
 * Maya vocabulary ({@link MAYA_SYNONYMS}) on top of the general 3D synonyms.
 */
export function createMayaCatalog(options: MayaCatalogOptions = {}): DccApiCatalog {
  const records = mayaCommands();
  const commands = options.withoutDescriptions
    ? records.map(({ description: _description, ...record }) => record)
    : records;
  return new DccApiCatalog("maya", {
    commands,
    ranker: options.ranker ?? "ranked",
    // Signatures show at most 25 flags; `flags` lists them all, so later flags stay searchable.
    keywordFields: ["flags"],
    synonyms: options.synonyms ? mergeSynonyms(MAYA_SYNONYMS, options.synonyms) : MAYA_SYNONYMS,
  });
}

/** Merges two synonym tables; a key present in both keeps the words of both. */
function mergeSynonyms(base: SynonymTable, extra: SynonymTable): SynonymTable {
  const merged: Record<string, readonly string[]> = { ...base };
  for (const [key, words] of Object.entries(extra)) {
    merged[key] = [...new Set([...(merged[key] ?? []), ...words])];
  }
  return merged;
}
