import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { type BlenderOperatorData, blenderOperatorData } from "../blender-operator-data.ts";
import { deepFreeze } from "./deep-freeze.ts";
import { type DescribedOperators, runningOperatorData } from "./running-operator-data.ts";

/** What `blender.operators.list` answers: the Blender, the key of its commands, its operators. */
interface OperatorList {
  readonly blender: string;
  readonly key: string;
  readonly names: readonly string[];
}

/** Where a running Blender's operators came from. */
export type OperatorSource = "tested" | "cache" | "generated";

/** Options for {@link discoverOperators}. */
export interface DiscoverOperatorsOptions {
  /** Calls a link method of the running Blender. */
  call: (method: string) => Promise<unknown>;
  /** The cache folder (see `blenderCacheDir`); undefined: no cache. */
  cacheDir: string | undefined;
  /** Generate even where a tested version's catalog fits (for benchmarks and tests). Default false. */
  ignoreTested?: boolean | undefined;
}

/** The operators of the running Blender, and where they came from. */
export interface DiscoveredOperators {
  readonly data: BlenderOperatorData;
  readonly source: OperatorSource;
  readonly key: string;
  /** The cache file written or read, if any. */
  readonly cacheFile?: string | undefined;
}

// `names` sorted as the catalogs are (by code point).
const sameNames = (data: BlenderOperatorData, names: readonly string[]): boolean =>
  data.operators.length === names.length &&
  data.operators.every((operator, index) => operator.name === names[index]);

/**
 * The running Blender's operators: a tested version's shipped catalog when that Blender has
 * exactly its operators; else the cached data of this build (keyed by version, build and
 * operator list); else read from the Blender itself (`blender.operators.describe`, about a second)
 * and cached. A cache that cannot be written is skipped: the data is still this Blender's.
 */
export async function discoverOperators(
  options: DiscoverOperatorsOptions,
): Promise<DiscoveredOperators> {
  const list = (await options.call("blender.operators.list")) as OperatorList;
  const names = [...list.names].sort();
  if (options.ignoreTested !== true) {
    let tested: BlenderOperatorData | undefined;
    try {
      tested = blenderOperatorData({ version: list.blender.split(/\s+/)[0] });
    } catch {
      tested = undefined;
    }
    const exact = tested?.blender.split(/\s+/)[0] === list.blender.split(/\s+/)[0];
    if (tested !== undefined && exact && sameNames(tested, names)) {
      return { data: tested, source: "tested", key: list.key };
    }
  }
  const cacheFile =
    options.cacheDir === undefined
      ? undefined
      : join(options.cacheDir, `operators-${list.key}.json`);
  if (cacheFile !== undefined && options.ignoreTested !== true) {
    try {
      const cached = JSON.parse(await readFile(cacheFile, "utf8")) as BlenderOperatorData;
      if (cached.blender === list.blender && sameNames(cached, names)) {
        return { data: deepFreeze(cached), source: "cache", key: list.key, cacheFile };
      }
    } catch {
      // Missing or unreadable: generated again below.
    }
  }
  const described = (await options.call("blender.operators.describe")) as DescribedOperators;
  const data = runningOperatorData(described);
  let written: string | undefined;
  if (cacheFile !== undefined && options.cacheDir !== undefined) {
    try {
      await mkdir(options.cacheDir, { recursive: true });
      const temporary = `${cacheFile}.${process.pid}.tmp`;
      await writeFile(temporary, JSON.stringify(data));
      await rename(temporary, cacheFile);
      written = cacheFile;
    } catch {
      written = undefined;
    }
  }
  return { data: deepFreeze(data), source: "generated", key: list.key, cacheFile: written };
}
