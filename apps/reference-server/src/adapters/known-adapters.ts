import { type BlenderWindow, createBlenderAdapter } from "@dcc/blender";
import type { DccAdapter } from "@dcc/executor";
import type { DccSandboxMode } from "@dcc/link";
import { createLinkedMayaAdapter, createMayaAdapter } from "@dcc/maya";

/** What an adapter of the registry is made from. */
export interface AdapterSettings {
  /** Folder for scene files, for adapters that save scenes. */
  dataDir?: string;
  /** How Blender runs (`none`: headless, the default; `xvfb`; `display`). */
  blenderWindow?: BlenderWindow;
  /** Which Maya `maya` serves: the simulated scene (the default), `mayapy`, or an attached one. */
  maya?: MayaChoice;
  /**
   * Attach to the artist's own Blender (running the DCC Link add-on) instead of launching one:
   * the add-on's `connection.json` (`"auto"` is resolved to one by `createReferenceServer`).
   */
  blenderAttach?: string | undefined;
  /**
   * Serve each DCC's catalog and tool texts only, starting no host (a farm's front end, whose
   * scripts run on workers): the reason its host commands give. See `createCatalogOnlyAdapter`.
   */
  catalogOnly?: string | undefined;
  /**
   * The OS sandbox around each launched DCC (`auto`, `on`, `off`); unset, `@dcc/link` decides by
   * `DCC_SANDBOX`, else `auto`. Attached DCCs are never sandboxed.
   */
  sandbox?: DccSandboxMode | undefined;
}

/**
 * Which Maya the `maya` entry serves: `simulated` (the in-memory scene), `mayapy` (a real
 * headless Maya: `path`, else `MAYAPY_BIN`, `$MAYA_LOCATION/bin/mayapy`, `PATH`), or `attach`
 * (the user's Maya running the `dcc_maya_link` plug-in, through its connection file).
 */
export type MayaChoice =
  | { readonly kind: "simulated" }
  | { readonly kind: "mayapy"; readonly path?: string | undefined }
  | { readonly kind: "attach"; readonly connectionFile: string };

/** One DCC the reference server can serve, by the name `--dcc` takes. */
export interface KnownAdapter {
  /** How the start-up line names it, e.g. `simulated Maya`. */
  readonly label: string | ((settings: AdapterSettings) => string);
  /** A fresh adapter. */
  create(settings: AdapterSettings): DccAdapter;
}

/**
 * The DCCs `--dcc` (and `DCC_MCP_DCC`) can name. Adding one is an entry here and a dependency on
 * its adapter package; several names serve several prefixed pairs of tools on one endpoint.
 */
export const knownAdapters: Readonly<Record<string, KnownAdapter>> = Object.freeze({
  maya: {
    label: (settings: AdapterSettings) =>
      settings.maya?.kind === "mayapy"
        ? "Maya (mayapy)"
        : settings.maya?.kind === "attach"
          ? "Maya (attached)"
          : "simulated Maya",
    create: (settings: AdapterSettings) => {
      const choice = settings.maya ?? { kind: "simulated" };
      if (choice.kind === "attach") {
        return createLinkedMayaAdapter({ attach: { connectionFile: choice.connectionFile } });
      }
      if (choice.kind === "mayapy") {
        if (settings.dataDir === undefined) {
          throw new TypeError(
            "A real Maya needs a data folder for its files (dataDir, --data-dir)",
          );
        }
        return createLinkedMayaAdapter({
          dataDir: settings.dataDir,
          mayapy: choice.path,
          sandbox: settings.sandbox,
        });
      }
      return createMayaAdapter(settings.dataDir === undefined ? {} : { dataDir: settings.dataDir });
    },
  },
  blender: {
    label: "Blender",
    create: (settings: AdapterSettings) => {
      if (settings.blenderAttach !== undefined) {
        // The attached Blender's own data folder (set in its add-on) applies.
        return createBlenderAdapter({ attach: { connectionFile: settings.blenderAttach } });
      }
      if (settings.dataDir === undefined) {
        throw new TypeError(
          "The Blender adapter needs a data folder for its files (dataDir, --data-dir)",
        );
      }
      return createBlenderAdapter({
        dataDir: settings.dataDir,
        window: settings.blenderWindow ?? "none",
        sandbox: settings.sandbox,
      });
    },
  },
});

/** The DCC served when none is named. */
export const defaultDcc = "maya";
