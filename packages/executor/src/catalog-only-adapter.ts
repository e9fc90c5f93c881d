import type { CommandDefinition } from "./command-definition.ts";
import { CommandError } from "./command-error.ts";
import type { DccAdapter } from "./dcc-adapter.ts";

/** Options for {@link createCatalogOnlyAdapter}. */
export interface CatalogOnlyAdapterOptions {
  /**
   * Why this server runs no host, said by every host command it refuses, e.g. `"scripts run on
   * the farm's workers"`. Default `"this server runs no host"`.
   */
  reason?: string;
}

/**
 * The catalog and tool texts of `adapter` without its host: a front end (a farm's server, whose
 * scripts run on workers) serves the DCC's `dcc_search`, instructions and execute description
 * exactly as the full adapter does, yet starts nothing. `adapter` is only read (`dccName`,
 * `commands()`, `catalog()`, the texts), never started or closed, so it must be one that launches
 * or connects in `start` alone, as every adapter of this toolkit does. Its commands keep their
 * names, signatures and descriptions; running one throws a {@link CommandError} with code
 * `CATALOG_ONLY` that names the reason, before anything reaches a host.
 */
export function createCatalogOnlyAdapter(
  adapter: DccAdapter,
  options: CatalogOnlyAdapterOptions = {},
): DccAdapter {
  const reason = options.reason ?? "this server runs no host";
  const refusal = (command: string): CommandError =>
    new CommandError({
      command,
      code: "CATALOG_ONLY",
      message: `No ${adapter.dccName} command runs on this server: it serves the catalog only (${reason})`,
      completion: "not_started",
    });
  const catalogOnly: DccAdapter = {
    dccName: adapter.dccName,
    commands: (): CommandDefinition[] =>
      adapter.commands().map((command) => ({
        ...command,
        handler: () => Promise.reject(refusal(command.name)),
      })),
    catalog: () => adapter.catalog(),
  };
  if (adapter.scriptsAtOnce !== undefined) {
    Object.assign(catalogOnly, { scriptsAtOnce: adapter.scriptsAtOnce });
  }
  // The texts are the full adapter's, word for word: a server's instructions say "no undo" for
  // an adapter without transactions, so one with them keeps a method (refusing like a command).
  if (adapter.beginTransaction !== undefined) {
    catalogOnly.beginTransaction = () => Promise.reject(refusal("transaction"));
  }
  if (adapter.instructions !== undefined) {
    catalogOnly.instructions = (tools) => adapter.instructions?.(tools) ?? "";
  }
  if (adapter.executeDescription !== undefined) {
    catalogOnly.executeDescription = (tools) => adapter.executeDescription?.(tools) ?? "";
  }
  return catalogOnly;
}
