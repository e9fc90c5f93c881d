import type { Readable, Writable } from "node:stream";
import type { DccAdapter, ExecutorLimits } from "@dcc/executor";
import { createDccServer, type DccAdapterRegistration, type DccServer } from "@dcc/mcp-bridge";
import { selectAdapters } from "../adapters/select-adapters.ts";

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
  /**
   * Names of the DCCs to serve, from the app's registry (`maya`). Default `["maya"]`, the
   * simulated Maya scene. With several, each gets its own `<name>_search` and `<name>_execute`.
   */
  dcc?: readonly string[];
  /** Adapters to serve instead of `dcc`, e.g. one with extra commands. */
  adapters?: ReadonlyArray<DccAdapter | DccAdapterRegistration>;
  /** Folder for scene files (`file` rename/save/open). Scene files are disabled without it. */
  dataDir?: string;
  /**
   * Folder for materialized scripts: a `dcc_execute` script that only defines a typed `main` is
   * stored there and can be called again with `file_path` + `params`. Disabled without it.
   */
  scriptsDir?: string;
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
 * Starts the reference MCP server: the named DCCs of the app's registry (the simulated Maya scene
 * by default), or the given adapters, served by `createDccServer` from `@dcc/mcp-bridge` over
 * Streamable HTTP or stdio. The CLI and the tests share it.
 * @throws `UnknownDccError` for an unknown or repeated DCC name; whatever `createDccServer` throws.
 */
export async function createReferenceServer(
  options: ReferenceServerOptions = {},
): Promise<ReferenceServer> {
  const { dcc, adapters, dataDir, ...rest } = options;
  return createDccServer({
    ...serverInfo,
    ...rest,
    adapters: adapters ?? selectAdapters(dcc, dataDir === undefined ? {} : { dataDir: dataDir }),
  });
}
