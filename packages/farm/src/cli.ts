#!/usr/bin/env node
// dcc-farm-worker: one DCC, one job at a time, from a pool of the farm's queue.
import { resolve } from "node:path";
import { createBlenderAdapter } from "@dcc/blender";
import type { DccAdapter } from "@dcc/executor";
import { createLinkedMayaAdapter, createMayaAdapter } from "@dcc/maya";
import { createAuditLog } from "@dcc/mcp-bridge/audit";
import { FarmError } from "./farm-error.ts";
import { parseWorkerArguments, wantsUsage, workerUsage } from "./internal/worker-arguments.ts";
import { type FarmWorker, runFarmWorker } from "./run-farm-worker.ts";
import { startTracing, type Tracing } from "./start-tracing.ts";

type Sandbox = "auto" | "on" | "off" | undefined;

const adapters: Record<
  string,
  (dataDir: string | undefined, maya: string | undefined, sandbox: Sandbox) => DccAdapter
> = {
  maya: (dataDir, maya, sandbox) => {
    if (maya === undefined || maya === "simulated") {
      return createMayaAdapter(dataDir === undefined ? {} : { dataDir });
    }
    if (dataDir === undefined) {
      throw new FarmError({
        code: "INVALID_CONFIG",
        message: "--dcc maya with a real Maya needs --data-dir, the folder its files stay in",
      });
    }
    return createLinkedMayaAdapter({
      dataDir: resolve(dataDir),
      ...(maya === "mayapy" ? {} : { mayapy: maya }),
      sandbox,
    });
  },
  blender: (dataDir, _maya, sandbox) => {
    if (dataDir === undefined) {
      throw new FarmError({
        code: "INVALID_CONFIG",
        message: "--dcc blender needs --data-dir, the folder its .blend files and renders stay in",
      });
    }
    return createBlenderAdapter({ dataDir, sandbox });
  },
};

async function main(): Promise<void> {
  if (wantsUsage(process.argv.slice(2))) {
    process.stdout.write(`${workerUsage}\n`);
    return;
  }
  let parsed: ReturnType<typeof parseWorkerArguments>;
  try {
    parsed = parseWorkerArguments(process.argv.slice(2), process.env);
  } catch (error) {
    process.stderr.write(`dcc-farm-worker: ${(error as Error).message}\n${workerUsage}\n`);
    process.exitCode = 2;
    return;
  }
  const create = adapters[parsed.dcc];
  if (create === undefined) {
    process.stderr.write(
      `dcc-farm-worker: no adapter named ${parsed.dcc} (known: ${Object.keys(adapters).join(", ")})\n`,
    );
    process.exitCode = 2;
    return;
  }
  const { dcc: _dcc, dataDir, maya, sandbox, auditLog, auditScript, ...options } = parsed;
  let adapter: DccAdapter;
  try {
    adapter = create(dataDir, maya, sandbox);
  } catch (error) {
    process.stderr.write(`dcc-farm-worker: ${(error as Error).message}\n${workerUsage}\n`);
    process.exitCode = 2;
    return;
  }
  let tracing: Tracing | undefined;
  try {
    tracing = await startTracing({ serviceName: "dcc-farm-worker" });
  } catch (error) {
    process.stderr.write(`dcc-farm-worker: ${(error as Error).message}\n`);
    process.exitCode = 2;
    return;
  }
  if (tracing !== undefined) {
    process.stderr.write(`dcc-farm-worker: traces to ${tracing.exporters.join(", ")}\n`);
  }
  const audit =
    auditLog === undefined
      ? undefined
      : await createAuditLog({
          file: resolve(auditLog),
          ...(auditScript === undefined ? {} : { script: auditScript }),
          onWarning: (message) => process.stderr.write(`dcc-farm-worker: ${message}\n`),
        });
  let worker: FarmWorker;
  try {
    worker = await runFarmWorker({
      ...options,
      ...(audit === undefined ? {} : { onToolCall: audit.record }),
      adapter,
      onHostStatus: (status) =>
        process.stderr.write(
          status.state === "ready"
            ? "dcc-farm-worker: host ready; taking jobs\n"
            : `dcc-farm-worker: host unavailable (${status.reason}); taking no jobs until it is back\n`,
        ),
    });
  } catch (error) {
    // An approval rule the adapter cannot take (a custom rule naming commands it lacks) is a bad
    // flag like the others; the worker closed the adapter.
    if (error instanceof Error && (error as { code?: unknown }).code === "INVALID_APPROVAL_RULE") {
      process.stderr.write(`dcc-farm-worker: ${error.message}\n`);
      await audit?.close();
      await tracing?.shutdown(5000);
      process.exit(2);
    }
    throw error;
  }
  const stop = (): void => {
    // The spans of the last jobs are sent before exiting, within a bounded wait.
    void worker
      .close()
      .then(() => audit?.close())
      .then(() => tracing?.shutdown(5000))
      .then(() => process.exit(0));
  };
  process.once("SIGTERM", stop);
  process.once("SIGINT", stop);
  // Last: whoever reads the ready line may signal this process at once.
  process.stderr.write(`dcc-farm-worker: ready, pool ${worker.pool} (pid ${process.pid})\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(
    `dcc-farm-worker: ${error instanceof Error ? error.message : String(error)}\n`,
  );
  process.exit(1);
});
