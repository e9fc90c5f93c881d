import { type BlenderWindow, createBlenderAdapter } from "@dcc/blender";
import type { DccAdapter } from "@dcc/executor";
import { createMayaAdapter } from "@dcc/maya";

/** What an adapter of the registry is made from. */
export interface AdapterSettings {
  /** Folder for scene files, for adapters that save scenes. */
  dataDir?: string;
  /** How Blender runs (`none`: headless, the default; `xvfb`; `display`). */
  blenderWindow?: BlenderWindow;
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
  blender: {
    label: "Blender",
    create: (settings: AdapterSettings) => {
      if (settings.dataDir === undefined) {
        throw new TypeError(
          "The Blender adapter needs a data folder for its files (dataDir, --data-dir)",
        );
      }
      return createBlenderAdapter({
        dataDir: settings.dataDir,
        window: settings.blenderWindow ?? "none",
      });
    },
  },
});

/** The DCC served when none is named. */
export const defaultDcc = "maya";
