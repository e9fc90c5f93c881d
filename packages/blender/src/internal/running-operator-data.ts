import type {
  BlenderArea,
  BlenderMode,
  BlenderOperator,
  BlenderOperatorParameter,
} from "../blender-operator.ts";
import {
  BLENDER_TESTED_VERSIONS,
  type BlenderOperatorData,
  blenderOperatorData,
} from "../blender-operator-data.ts";

/** One operator as `blender.operators.describe` reads it from Blender's RNA. */
export interface DescribedOperator {
  readonly name: string;
  readonly label: string;
  readonly description: string;
  readonly options: readonly string[];
  readonly params: readonly BlenderOperatorParameter[];
}

/** What `blender.operators.describe` answers. */
export interface DescribedOperators {
  readonly blender: string;
  readonly key: string;
  readonly operators: readonly DescribedOperator[];
}

/** `[major, minor, patch]` of a version string such as `5.2.2 LTS`. */
function versionParts(version: string): number[] {
  return (version.trim().split(/\s+/)[0] ?? "").split(".").map((part) => Number(part) || 0);
}

/**
 * The tested version closest to `version` from below (the same `major.minor` first), else the
 * oldest: its catalog lends where each operator's poll() passes, which RNA cannot tell.
 */
export function nearestTestedVersion(version: string): string {
  const wanted = versionParts(version);
  const compare = (a: number[], b: number[]): number =>
    (a[0] ?? 0) - (b[0] ?? 0) || (a[1] ?? 0) - (b[1] ?? 0) || (a[2] ?? 0) - (b[2] ?? 0);
  let best: string | undefined;
  for (const tested of BLENDER_TESTED_VERSIONS) {
    if (compare(versionParts(tested), wanted) <= 0) best = tested;
  }
  return best ?? (BLENDER_TESTED_VERSIONS[0] as string);
}

/**
 * The operator data of a running Blender from what it described: each operator's signature,
 * label and description as that Blender has them; where its poll() passes (modes, editors) from
 * the nearest tested version's catalog, for the operators that catalog has.
 */
export function runningOperatorData(described: DescribedOperators): BlenderOperatorData {
  const near = blenderOperatorData({ version: nearestTestedVersion(described.blender) });
  const hints = new Map<string, { modes?: readonly BlenderMode[]; areas?: readonly BlenderArea[] }>(
    near.operators.map((operator) => [operator.name, operator]),
  );
  const operators = described.operators
    .map((entry): BlenderOperator => {
      const hint = hints.get(entry.name);
      return {
        name: entry.name,
        label: entry.label,
        ...(entry.description === "" ? {} : { description: entry.description }),
        ...(entry.options.length > 0 ? { options: [...entry.options].sort() } : {}),
        ...(entry.params.length > 0 ? { params: entry.params } : {}),
        ...(hint?.modes === undefined ? {} : { modes: hint.modes }),
        ...(hint?.areas === undefined ? {} : { areas: hint.areas }),
      };
    })
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return {
    blender: described.blender,
    modes: near.modes,
    areas: near.areas,
    skippedPolls: [],
    operators,
  };
}
