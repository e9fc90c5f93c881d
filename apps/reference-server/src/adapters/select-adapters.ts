import { createCatalogOnlyAdapter, type DccAdapter } from "@dcc/executor";
import {
  type AdapterSettings,
  defaultDcc,
  type KnownAdapter,
  knownAdapters,
} from "./known-adapters.ts";
import { UnknownDccError } from "./unknown-dcc-error.ts";

/**
 * Checks a list of DCC names against the registry.
 * @returns The names, in order.
 * @throws {UnknownDccError} for an unknown name (the message lists the known ones), a name given
 *   twice, or an empty list.
 */
export function checkDccNames(
  names: readonly string[],
  registry: Readonly<Record<string, KnownAdapter>> = knownAdapters,
): string[] {
  const known = Object.keys(registry).sort();
  if (names.length === 0) {
    throw new UnknownDccError({ message: `Name at least one DCC (known: ${known.join(", ")})` });
  }
  const seen = new Set<string>();
  for (const name of names) {
    if (!Object.hasOwn(registry, name)) {
      throw new UnknownDccError({
        message: `Unknown DCC: ${JSON.stringify(name)} (known: ${known.join(", ")})`,
      });
    }
    if (seen.has(name)) throw new UnknownDccError({ message: `DCC ${name} is named twice` });
    seen.add(name);
  }
  return [...names];
}

/**
 * Fresh adapters for the named DCCs (the default one when `names` is undefined); catalog-only
 * ones, which start no host, with `settings.catalogOnly`.
 */
export function selectAdapters(
  names: readonly string[] | undefined,
  settings: AdapterSettings,
  registry: Readonly<Record<string, KnownAdapter>> = knownAdapters,
): DccAdapter[] {
  return checkDccNames(names ?? [defaultDcc], registry).map((name) => {
    const adapter = (registry[name] as KnownAdapter).create(settings);
    const reason = settings.catalogOnly;
    return reason === undefined ? adapter : createCatalogOnlyAdapter(adapter, { reason });
  });
}

/** How the start-up line names the DCCs, e.g. `simulated Maya`. */
export function dccLabels(
  names: readonly string[] | undefined,
  registry: Readonly<Record<string, KnownAdapter>> = knownAdapters,
  settings: AdapterSettings = {},
): string {
  return (names ?? [defaultDcc])
    .map((name) => {
      const label = registry[name]?.label ?? name;
      return typeof label === "function" ? label(settings) : label;
    })
    .join(", ");
}
