import { DccApiCatalog, type RankerName, type SynonymTable } from "@dcc/catalog";
import type { BlenderCommandRecord } from "./blender-command-record.ts";
import { blenderDataCommands } from "./blender-data-command.ts";
import type { BlenderOperator } from "./blender-operator.ts";
import { blenderOperatorData } from "./blender-operator-data.ts";
import { BLENDER_SYNONYMS } from "./blender-synonyms.ts";
import { mergeSynonyms } from "./internal/merge-synonyms.ts";
import { operatorContextHint } from "./operator-context-hint.ts";
import { operatorSignature } from "./operator-signature.ts";

/** Options for {@link createBlenderCatalog}. */
export interface BlenderCatalogOptions {
  /** Search algorithm; defaults to `"ranked"`. */
  ranker?: RankerName;
  /** Extra synonym groups, added to {@link BLENDER_SYNONYMS} (and the catalog's general ones). */
  synonyms?: SynonymTable;
}

/** Record fields the ranked ranker indexes beside the signature's parameter names. */
const keywordFields = ["label"];

/**
 * Builds the Blender catalog: every `bpy.ops` operator of the generated data (2,144 in Blender
 * 3.4.1) with its typed signature, description, label and context hint, then the data-API
 * commands, searched with Blender's vocabulary ({@link BLENDER_SYNONYMS}).
 */
export function createBlenderCatalog(options: BlenderCatalogOptions = {}): DccApiCatalog {
  const commands: BlenderCommandRecord[] = blenderOperatorData().operators.map(operatorRecord);
  for (const command of blenderDataCommands()) {
    commands.push({
      name: command.name,
      signature: command.signature,
      description: command.description,
      kind: "data",
      examples: command.examples,
    });
  }
  return new DccApiCatalog("blender", {
    commands,
    ranker: options.ranker ?? "ranked",
    keywordFields,
    synonyms: options.synonyms
      ? mergeSynonyms(BLENDER_SYNONYMS, options.synonyms)
      : BLENDER_SYNONYMS,
  });
}

function operatorRecord(operator: BlenderOperator): BlenderCommandRecord {
  const described =
    operator.description !== undefined && operator.description !== "(undocumented operator)";
  const record: BlenderCommandRecord = {
    name: operator.name,
    signature: operatorSignature(operator),
    description: described ? (operator.description as string) : operator.label,
    kind: "operator",
    label: operator.label,
  };
  const context = operatorContextHint(operator);
  if (context !== undefined) record.context = context;
  return record;
}
