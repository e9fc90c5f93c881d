import type { DccAdapter } from "@dcc/executor";
import { createMayaAdapter } from "@dcc/maya";

/** What an adapter of the registry is made from. */
export interface AdapterSettings {
  /** Folder for scene files, for adapters that save scenes. */
  dataDir?: string;
}

/** One DCC the reference server can serve, by the name `--dcc` takes. */
export interface KnownAdapter {
  /** How the start-up line names it, e.g. `simulated Maya`. */
  readonly label: string;
  /** A fresh adapter. */
  create(settings: AdapterSettings): DccAdapter;
}

/**
 * The DCCs `--dcc` (and `DCC_MCP_DCC`) can name. Adding one is an entry here and a dependency on
 * its adapter package; several names serve several prefixed pairs of tools on one endpoint.
 */
export const knownAdapters: Readonly<Record<string, KnownAdapter>> = Object.freeze({
  maya: {
    label: "simulated Maya",
    create: (settings: AdapterSettings) =>
      createMayaAdapter(settings.dataDir === undefined ? {} : { dataDir: settings.dataDir }),
  },
});

/** The DCC served when none is named. */
export const defaultDcc = "maya";
