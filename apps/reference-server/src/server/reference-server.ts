import type { Readable, Writable } from "node:stream";
import type { DccAdapter, ExecutorLimits } from "@dcc/executor";
import { createMayaAdapter } from "@dcc/maya";
import { createDccServer, type DccServer } from "@dcc/mcp-bridge";

/** Options for {@link createReferenceServer}. */
export interface ReferenceServerOptions {
  /** `"http"` (Streamable HTTP, the default) or `"stdio"`. */
  transport?: "http" | "stdio";
  /** HTTP port; 0 picks a free one. Default 8765. */
  port?: number;
  /** HTTP address to bind. Default `127.0.0.1`. */
  host?: string;
  /** Require `Authorization: Bearer <token>` over HTTP (at least 16 characters). */
  token?: string;
  /** Folder for scene files (`file` rename/save/open). Scene files are disabled without it. */
  dataDir?: string;
  /**
   * Folder for materialized scripts: a `dcc_execute` script that only defines a typed `main` is
   * stored there and can be called again with `file_path` + `params`. Disabled without it.
   */
  scriptsDir?: string;
  /** The DCC behind the server; the simulated Maya scene by default. */
  adapter?: DccAdapter;
  /** Overrides of the executor's sandbox limits. */
  limits?: Partial<ExecutorLimits>;
  /** stdio only: where requests come from. Default `process.stdin`. */
  stdin?: Readable;
  /** stdio only: where responses go. Default `process.stdout`. */
  stdout?: Writable;
}

/** A running reference server. */
export type ReferenceServer = DccServer;

const serverInfo = { name: "dcc-reference-server", version: "0.1.0" };

/**
 * Builds and starts the reference MCP server: the simulated Maya adapter (or the given one) as
 * `dcc_search` and `dcc_execute` over Streamable HTTP or stdio. The CLI and the tests share it.
 */
export function createReferenceServer(
  options: ReferenceServerOptions = {},
): Promise<ReferenceServer> {
  const { adapter, dataDir, ...rest } = options;
  return createDccServer({
    ...serverInfo,
    ...rest,
    adapters: [adapter ?? createMayaAdapter(dataDir === undefined ? {} : { dataDir })],
  });
}
