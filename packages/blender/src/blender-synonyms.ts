import type { SynonymTable } from "@dcc/catalog";

/**
 * Blender vocabulary for the catalog's `"ranked"` ranker, added to `@dcc/catalog`'s general 3D
 * synonyms: the words people use for what Blender names differently. Word-to-word groups only;
 * no command is mapped to a query.
 */
export const BLENDER_SYNONYMS: SynonymTable = Object.freeze({});
