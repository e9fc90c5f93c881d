import type { Readable, Writable } from "node:stream";
import { StdioServerTransport, serveStdio } from "@modelcontextprotocol/server/stdio";
import type { DccServerOptions } from "./dcc-server-options.ts";
import { buildMcpServer, resolveRegistrations } from "./internal/build-mcp-server.ts";
import { JobManager } from "./job-manager.ts";

/** Options for {@link runStdioServer}. */
export interface StdioServerOptions extends DccServerOptions {
  /** Where requests come from. Default `process.stdin`. */
  stdin?: Readable;
  /** Where responses go; nothing else may write to it. Default `process.stdout`. */
  stdout?: Writable;
  /** How long `close()` waits for cancelled work to stop, in ms. Default 2000. */
  shutdownGraceMs?: number;
}

/** A running stdio server. */
export interface StdioServerHandle {
  /** The job manager of this server. */
  jobs: JobManager;
  /** Cancels work in flight and closes the transport. */
  close(): Promise<void>;
  /** Settles once the server has closed, by `close()` or because stdin ended. */
  closed: Promise<void>;
}

/**
 * Serves MCP over stdio (one client per process), on either protocol revision: the client's
 * first message picks it (`initialize` for 2025-11-25, a request with the per-request `_meta`
 * envelope for 2026-07-28). When stdin ends, work in flight is cancelled and the server closes.
 * Protocol messages own stdout: log to stderr.
 */
export async function runStdioServer(options: StdioServerOptions): Promise<StdioServerHandle> {
  const stdin = options.stdin ?? process.stdin;
  const stdout = options.stdout ?? process.stdout;
  const jobs = new JobManager({
    ...(options.jobStore === undefined ? {} : { store: options.jobStore }),
    ...(options.jobQueue === undefined ? {} : { queue: options.jobQueue }),
    ...(options.syncCallsOnQueue === true ? { syncCallsOnQueue: true } : {}),
    ...(options.maxRunningJobs === undefined ? {} : { maxRunningJobs: options.maxRunningJobs }),
    ...(options.maxRunningCalls === undefined ? {} : { maxRunningCalls: options.maxRunningCalls }),
  });
  const registrations = resolveRegistrations(options);
  const transport = new StdioServerTransport(stdin, stdout);
  let markClosed: () => void = () => {};
  const closed = new Promise<void>((resolve) => (markClosed = resolve));
  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closing ??= (async () => {
      stdin.off("end", onEnd);
      stdin.off("close", onEnd);
      await jobs.close(options.shutdownGraceMs ?? 2000);
      await served.close().catch(() => {});
      markClosed();
    })();
    return closing;
  };
  const onEnd = (): void => void close();
  stdin.once("end", onEnd);
  stdin.once("close", onEnd);
  // One server per connection (and one for a `server/discover` probe that falls back).
  const served = serveStdio(() => buildMcpServer(options, registrations, jobs), {
    legacy: "serve",
    transport,
    onerror: () => {},
  });
  return { jobs, close, closed };
}
