import { DccApiCatalog, type RankerName, type SynonymTable } from "@dcc/catalog";
import { commandSpecRecord } from "@dcc/linked-adapter";
import type { BlenderPolicy } from "./adapter/blender-launch.ts";
import type { BlenderCommandRecord } from "./blender-command-record.ts";
import { blenderDataCommands } from "./blender-data-command.ts";
import type { BlenderMode, BlenderOperator } from "./blender-operator.ts";
import { type BlenderOperatorData, blenderOperatorData } from "./blender-operator-data.ts";
import { BLENDER_SYNONYMS } from "./blender-synonyms.ts";
import { eeveeEngineOf } from "./internal/blender-vocabulary.ts";
import { mergeSynonyms } from "./internal/merge-synonyms.ts";
import { operatorNotes } from "./internal/operator-notes.ts";
import { operatorPolicy, reviewedOperators, unreviewedMark } from "./internal/operator-policy.ts";
import { operatorContextHint } from "./operator-context-hint.ts";
import { operatorSignature } from "./operator-signature.ts";

/** Options for {@link createBlenderCatalog}. */
export interface BlenderCatalogOptions {
  /** Search algorithm; defaults to `"ranked"`. */
  ranker?: RankerName;
  /** Extra synonym groups, added to {@link BLENDER_SYNONYMS} (and the catalog's general ones). */
  synonyms?: SynonymTable;
  /**
   * The host's policy, so that operators it refuses by name carry a `policy` note in searches.
   * A rule named in `allow`, or an operator id listed there exactly, drops the note; under an
   * `allow` pattern (`wm.url_*`) the note stays, worded as a condition.
   */
  policy?: BlenderPolicy | undefined;
  /**
   * Which tested Blender's operators (`BLENDER_TESTED_VERSIONS`), for search before a
   * Blender runs or on a front end without one. Default `3.4.1`. Ignored when `operators` is
   * given.
   */
  version?: string | undefined;
  /**
   * The operators of the Blender that serves the commands (the adapter reads them from it when
   * it starts), instead of a tested version's.
   */
  operators?: BlenderOperatorData | undefined;
  /**
   * This Blender's EEVEE engine id (`BLENDER_EEVEE_NEXT` in 4.2 to 4.5), for the data commands'
   * texts. Default: the id of the catalog's Blender version.
   */
  eeveeEngine?: string | undefined;
}

// Menu labels ("Merge by Distance" for mesh.remove_doubles) are indexed like parameter names.
const keywordFields = ["label"];

/**
 * Builds the Blender catalog: every `bpy.ops` operator of one Blender (a tested version's
 * generated data, 2,144 operators in 3.4.1 and 2,493 in 5.2.2, or the operators read from the
 * running Blender) with its typed signature, description, label and context hint, then the
 * data-API commands, searched with Blender's vocabulary ({@link BLENDER_SYNONYMS}). Where
 * Blender's description misses what people call an operator, a hand-written "used for" sentence
 * follows it. Only that Blender's operators are in it.
 * @throws {RangeError} for a `version` that is not a tested one.
 */
export function createBlenderCatalog(options: BlenderCatalogOptions = {}): DccApiCatalog {
  const lifted = new Set(options.policy?.allow ?? []);
  const data = options.operators ?? blenderOperatorData({ version: options.version });
  const commands: BlenderCommandRecord[] = data.operators.map((operator) =>
    operatorRecord(operator, lifted, data.modes),
  );
  const eevee = options.eeveeEngine ?? eeveeEngineOf(data.blender);
  for (const command of blenderDataCommands()) {
    const record = commandSpecRecord(command, { kind: "data" }) as BlenderCommandRecord;
    record.description = record.description.replaceAll("BLENDER_EEVEE,", `${eevee},`);
    commands.push(record);
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

function operatorRecord(
  operator: BlenderOperator,
  lifted: ReadonlySet<string>,
  testedModes: readonly BlenderMode[],
): BlenderCommandRecord {
  const own = operator.description;
  const described = own !== undefined && own !== "(undocumented operator)";
  const note = operatorNotes().get(operator.name);
  let description = described ? own : operator.label;
  if (note !== undefined) description = `${description.replace(/\.$/, "")}. ${note}`;
  const record: BlenderCommandRecord = {
    name: operator.name,
    signature: operatorSignature(operator),
    description,
    kind: "operator",
    label: operator.label,
  };
  const context = testedModes.length > 0 ? operatorContextHint(operator, testedModes) : undefined;
  if (context !== undefined) record.context = context;
  const mark =
    operatorPolicy().get(operator.name) ??
    (reviewedOperators().has(operator.name) ? undefined : unreviewedMark);
  if (mark !== undefined && !lifted.has(mark.rule) && !lifted.has(operator.name)) {
    record.policy = `refused unless the host lifts rule '${mark.rule}': ${mark.reason}`;
  }
  return record;
}
