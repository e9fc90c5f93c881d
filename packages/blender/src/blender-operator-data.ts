import { readFileSync } from "node:fs";
import type { BlenderArea, BlenderMode, BlenderOperator } from "./blender-operator.ts";
import { deepFreeze } from "./internal/deep-freeze.ts";

/** The generated operator data: the Blender version it was read from and every operator. */
export interface BlenderOperatorData {
  /** Blender's version string, e.g. `3.4.1` or `5.2.2 LTS`. */
  readonly blender: string;
  /** The modes poll() was tested in (none for data read from a running Blender). */
  readonly modes: readonly BlenderMode[];
  /** The editors poll() was tested under. */
  readonly areas: readonly BlenderArea[];
  /** Polls left out because they crash Blender (`AREA/operator`, `*` for every editor). */
  readonly skippedPolls: readonly string[];
  /** Every operator, sorted by name. */
  readonly operators: readonly BlenderOperator[];
}

/**
 * The Blender versions whose operators ship with this package (generated from Debian's
 * Blenders and committed), oldest first. Each is tested in CI.
 */
export const BLENDER_TESTED_VERSIONS: readonly string[] = Object.freeze([
  "3.4.1",
  "4.3.2",
  "5.2.2",
]);

/** Options for {@link blenderOperatorData}. */
export interface BlenderOperatorDataOptions {
  /**
   * Which Blender's operators: one of {@link BLENDER_TESTED_VERSIONS} (`5.2.2`; `5.2.2 LTS` and
   * a `major.minor` such as `4.3` are taken too). Default `3.4.1`.
   */
  version?: string | undefined;
}

const loaded = new Map<string, BlenderOperatorData>();

/** The tested version `version` names (`5.2.2 LTS`, `5.2.2`, `5.2`), or undefined. */
export function testedBlenderVersion(version: string): string | undefined {
  const number = version.trim().split(/\s+/)[0] ?? "";
  if (BLENDER_TESTED_VERSIONS.includes(number)) return number;
  return BLENDER_TESTED_VERSIONS.find((tested) => tested.startsWith(`${number}.`));
}

/**
 * The operator catalog generated from a tested Blender (`scripts/generate-catalog.mjs`), read on
 * first call for that version, then cached and deeply frozen. Needs neither Blender nor anything
 * outside the package.
 * @throws {RangeError} for a version that is not one of {@link BLENDER_TESTED_VERSIONS}.
 */
export function blenderOperatorData(options: BlenderOperatorDataOptions = {}): BlenderOperatorData {
  const wanted = options.version ?? "3.4.1";
  const version = testedBlenderVersion(wanted);
  if (version === undefined) {
    throw new RangeError(
      `no operator catalog ships for Blender ${JSON.stringify(wanted)}: the tested versions are ${BLENDER_TESTED_VERSIONS.join(", ")} (a running Blender's own operators are read from it when the adapter starts)`,
    );
  }
  let data = loaded.get(version);
  if (data === undefined) {
    // Read with fs rather than imported: typing a 1 MB literal would slow every type check. The
    // build copies the files next to the compiled module, so this URL works from src and dist.
    const url = new URL(`./data/operators-${version}.generated.json`, import.meta.url);
    data = deepFreeze(JSON.parse(readFileSync(url, "utf8")) as BlenderOperatorData);
    loaded.set(version, data);
  }
  return data;
}
