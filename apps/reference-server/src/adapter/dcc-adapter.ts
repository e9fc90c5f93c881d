import type { DccApiCatalog } from "@dcc/catalog";
import type { CommandDefinition } from "@dcc/executor";

/**
 * The seam between the MCP server and one DCC. An adapter supplies the host commands scripts
 * `dispatch` to (registered on a `ToolRegistry`) and the catalog `dcc_search` looks in. The
 * simulated Maya scene is one adapter; a real Maya over its command port, Blender or Houdini
 * would be others, each keeping its DCC's specifics behind this interface.
 */
export interface DccAdapter {
  /** DCC identifier used in tool results, e.g. `"maya"`. */
  readonly dccName: string;
  /** Host commands for a `ToolRegistry`: every command a script may dispatch. */
  commands(): CommandDefinition[];
  /** What `dcc_search` searches. */
  catalog(): DccApiCatalog;
  /** Server instructions sent to clients in `initialize` (what the DCC offers, conventions). */
  readonly instructions?: string;
  /** Replaces the execute tool's description, e.g. to state the DCC's argument convention. */
  readonly executeDescription?: string;
  /** Releases connections or files the adapter holds. */
  close?(): Promise<void>;
}
