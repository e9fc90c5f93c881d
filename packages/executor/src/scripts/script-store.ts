import { randomUUID } from "node:crypto";
import { lstat, mkdir, readdir, realpath, rm } from "node:fs/promises";
import path from "node:path";
import { analyzeScript, type ParametersSchema, type ScriptAnalysis } from "./analyze-script.ts";
import { openConfined } from "./internal/confine-path.ts";
import { atomicWrite, formatUtc, isInside, parseUtc, sha256Hex } from "./internal/files.ts";
import { jsonEqual } from "./internal/json-equal.ts";
import { validateMaterializeOptions } from "./internal/materialize-options.ts";
import { normalizeSuffix, sanitizeSegment } from "./internal/path-segments.ts";
import { descriptorOf, fileRefOf } from "./internal/script-descriptor.ts";
import { encodeSidecar, readSidecar, sidecarPath } from "./internal/sidecar.ts";
import type { MaterializedScript } from "./materialized-script.ts";
import { ScriptExpiredError } from "./script-expired-error.ts";
import { ScriptHashMismatchError } from "./script-hash-mismatch-error.ts";
import { ScriptMetadataError } from "./script-metadata-error.ts";
import { ScriptNotFoundError } from "./script-not-found-error.ts";
import { ScriptOptionsError } from "./script-options-error.ts";
import { ScriptPathOutsideRootError } from "./script-path-outside-root-error.ts";
import { ScriptSchemaConflictError } from "./script-schema-conflict-error.ts";
import { ScriptSyntaxError } from "./script-syntax-error.ts";

/** Options for {@link ScriptStore}. */
export interface ScriptStoreOptions {
  /** The scripts root. It comes from host configuration, never from tool arguments. */
  root: string;
  /** Clock in epoch milliseconds, for TTLs; defaults to `Date.now`. */
  now?: () => number;
  /** Largest script accepted, in UTF-8 bytes; defaults to 1 MiB. */
  maxScriptBytes?: number;
}

/** Options for {@link ScriptStore.materialize}. */
export interface MaterializeOptions {
  /** DCC name, the first path segment (e.g. "maya"). */
  dccType: string;
  /** DCC instance id segment; "unknown" when absent. */
  instanceId?: string;
  /** Session id segment; "unknown" when absent. */
  sessionId?: string;
  /** Return an existing file with the same key and content instead of writing a new one. */
  reuse?: boolean;
  /** Names the file when reusing; without it the full sha256 names it. */
  reuseKey?: string;
  /** Time to live in whole seconds (positive); kept until removed when absent. */
  ttlSecs?: number;
  /** File suffix; defaults to ".ts". */
  suffix?: string;
  /** The MCP tool call that asked for it, recorded in the sidecar. */
  toolCallId?: string;
  /** A caller correlation id, recorded in the sidecar. */
  correlationId?: string;
}

/** Options for {@link ScriptStore.resolve}. */
export interface ResolveOptions {
  /** Expected hex sha256 (optionally prefixed `sha256:`) of the file's bytes. */
  sha256?: string;
}

/** A script read back from the store and verified. */
export interface ResolvedScript {
  /** Real path of the file. */
  filePath: string;
  /** Its content. */
  code: string;
  /** Hex sha256 of its bytes. */
  sha256: string;
  /** Its size in bytes. */
  bytes: number;
  /** Analysis of the current body. */
  analysis: ScriptAnalysis;
  /** The schema derived from the current body (the sidecar's, when it has one, agrees). */
  parametersSchema: ParametersSchema | null;
  /** The sidecar descriptor, or null for a file without one. */
  metadata: MaterializedScript | null;
}

/** Result of {@link ScriptStore.cleanupExpired}. */
export interface CleanupResult {
  /** Script paths removed together with their sidecars. */
  removed: string[];
}

/**
 * Owns a scripts root: writes materialized scripts with their sidecars, resolves paths that
 * callers send back (confined to the root, verified against their sha256 and sidecar), and
 * removes expired scripts. Executor and bridge share one instance.
 */
export class ScriptStore {
  /** The absolute scripts root as configured. */
  readonly root: string;
  readonly #now: () => number;
  readonly #maxBytes: number;
  readonly #inFlight = new Map<string, Promise<MaterializedScript | undefined>>();

  constructor(options: ScriptStoreOptions) {
    if (typeof options.root !== "string" || options.root === "") {
      throw new ScriptOptionsError({ option: "root", detail: "must be a non-empty path" });
    }
    this.root = path.resolve(options.root);
    this.#now = options.now ?? Date.now;
    this.#maxBytes = options.maxScriptBytes ?? 1024 * 1024;
  }

  /**
   * Writes `code` under `<root>/<dcc>/temp/<instance>/<session>/<scriptId><suffix>` with a
   * `.meta.json` sidecar, both atomically. With `reuse`, the same key and content return the
   * existing file (`reused: true`, original `createdAt`) without rewriting it; concurrent calls for
   * one file in this process share one write.
   *
   * @throws {@link ScriptOptionsError} for an invalid option, {@link ScriptSyntaxError} and
   * {@link UnsupportedParameterTypeError} when the code cannot be analysed.
   */
  async materialize(code: string, options: MaterializeOptions): Promise<MaterializedScript> {
    validateMaterializeOptions(code, options, this.#maxBytes);
    const body = new TextEncoder().encode(code);
    const sha256 = sha256Hex(body);
    const analysis = analyzeScript(code);
    const reuse = options.reuse === true;
    const scriptId = reuse
      ? options.reuseKey
        ? `${sanitizeSegment(options.reuseKey, "reuse")}_${sha256.slice(0, 12)}`
        : sha256
      : `script_${randomUUID().replaceAll("-", "")}_${sha256.slice(0, 12)}`;
    const segments = {
      dccType: sanitizeSegment(options.dccType),
      instanceId: sanitizeSegment(options.instanceId),
      sessionId: sanitizeSegment(options.sessionId),
    };
    const directory = path.join(
      this.root,
      segments.dccType,
      "temp",
      segments.instanceId,
      segments.sessionId,
    );
    await mkdir(directory, { recursive: true, mode: 0o700 });
    const realRoot = await realpath(this.root);
    const realDirectory = await realpath(directory);
    if (!isInside(realRoot, realDirectory)) {
      throw new ScriptPathOutsideRootError({
        filePath: directory,
        reason: "a symlink leads outside the scripts root",
      });
    }
    const suffix = normalizeSuffix(options.suffix);
    const target = path.join(realDirectory, `${scriptId}${suffix}`);
    const write = async (): Promise<MaterializedScript> => {
      if (reuse) {
        const existing = await this.#reusable(target, sha256, analysis.parametersSchema);
        if (existing !== undefined) return existing;
      }
      const createdMs = Math.floor(this.#now() / 1000) * 1000;
      const ttlSecs = options.ttlSecs ?? null;
      const descriptor: MaterializedScript = {
        filePath: target,
        sha256,
        bytes: body.byteLength,
        reused: false,
        createdAt: formatUtc(createdMs),
        expiresAt: ttlSecs === null ? null : formatUtc(createdMs + ttlSecs * 1000),
        ttlSecs,
        ...segments,
        scriptId,
        language: "typescript",
        suffix,
        toolCallId: options.toolCallId ?? null,
        correlationId: options.correlationId ?? null,
        parametersSchema: analysis.parametersSchema,
        fileRef: fileRefOf(target, sha256, body.byteLength),
      };
      // Script first: a sidecar on disk always describes a complete script.
      await atomicWrite(target, body);
      await atomicWrite(sidecarPath(target), encodeSidecar(descriptor));
      return descriptor;
    };
    // Calls for one target in this process run one after another, so the second one of a
    // reuse key finds the first one's file instead of writing it again.
    const previous = this.#inFlight.get(target) ?? Promise.resolve(undefined);
    const running = previous.catch(() => undefined).then(write);
    this.#inFlight.set(target, running);
    try {
      return await running;
    } finally {
      if (this.#inFlight.get(target) === running) this.#inFlight.delete(target);
    }
  }

  /**
   * Resolves a path a caller sent back: confined to the root (no `..`, no absolute path
   * elsewhere, no symlink leading out, a regular file), checked against `sha256` when given and
   * against its sidecar (content, expiry, schema) when it has one. Legacy sidecars without a
   * schema are accepted; the schema always comes from the current body.
   *
   * @throws {@link ScriptPathOutsideRootError}, {@link ScriptNotFoundError},
   * {@link ScriptHashMismatchError}, {@link ScriptExpiredError}, {@link ScriptMetadataError},
   * {@link ScriptSchemaConflictError}, {@link ScriptSyntaxError} or
   * {@link UnsupportedParameterTypeError}.
   */
  async resolve(filePath: string, options: ResolveOptions = {}): Promise<ResolvedScript> {
    if (typeof filePath !== "string" || filePath === "") {
      throw new ScriptOptionsError({ option: "filePath", detail: "must be a non-empty string" });
    }
    const file = await openConfined(this.root, filePath);
    if (file.realPath.endsWith(".meta.json")) {
      await file.handle.close();
      throw new ScriptNotFoundError({ filePath, detail: "a sidecar, not a script" });
    }
    let bytes: Uint8Array;
    try {
      if (file.size > this.#maxBytes) {
        throw new ScriptOptionsError({
          option: "filePath",
          detail: `names a file of ${file.size} bytes, above the ${this.#maxBytes}-byte limit`,
        });
      }
      bytes = await file.handle.readFile();
    } finally {
      await file.handle.close();
    }
    const sha256 = sha256Hex(bytes);
    if (options.sha256 !== undefined) {
      const expected = options.sha256
        .trim()
        .toLowerCase()
        .replace(/^sha256:/, "");
      if (expected !== sha256) {
        throw new ScriptHashMismatchError({
          filePath,
          expected: options.sha256,
          actual: sha256,
          source: "request",
        });
      }
    }
    const sidecar = await readSidecar(file.realPath);
    if (sidecar !== null) this.#checkSidecar(sidecar, file.realPath, sha256, bytes.byteLength);
    let code: string;
    try {
      code = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    } catch (error) {
      throw new ScriptSyntaxError({
        detail: "the file is not UTF-8",
        line: 1,
        column: 1,
        cause: error,
      });
    }
    const analysis = analyzeScript(code);
    const recorded = sidecar?.["parametersSchema"];
    if (recorded !== undefined && !jsonEqual(recorded, analysis.parametersSchema)) {
      throw new ScriptSchemaConflictError({ filePath });
    }
    return {
      filePath: file.realPath,
      code,
      sha256,
      bytes: bytes.byteLength,
      analysis,
      parametersSchema: analysis.parametersSchema,
      metadata: sidecar === null ? null : descriptorOf(sidecar, file.realPath, sha256, analysis),
    };
  }

  /**
   * Removes every expired script together with its sidecar. Only pairs whose sidecar records an
   * `expiresAt` in the past are touched; symlinked directories are not entered.
   */
  async cleanupExpired(): Promise<CleanupResult> {
    const removed: string[] = [];
    const now = this.#now();
    const pending = [this.root];
    while (pending.length > 0) {
      const directory = pending.pop() as string;
      let entries: import("node:fs").Dirent[];
      try {
        entries = await readdir(directory, { withFileTypes: true });
      } catch {
        continue;
      }
      for (const entry of entries) {
        const full = path.join(directory, entry.name);
        if (entry.isDirectory()) pending.push(full);
        if (!entry.isFile() || !entry.name.endsWith(".meta.json")) continue;
        const script = full.slice(0, -".meta.json".length);
        let sidecar: Record<string, unknown> | null;
        try {
          sidecar = await readSidecar(script);
        } catch {
          continue;
        }
        const expires = parseUtc(sidecar?.["expiresAt"]);
        if (expires === undefined || expires > now) continue;
        const stats = await lstat(script).catch(() => undefined);
        if (stats !== undefined && (stats.isFile() || stats.isSymbolicLink())) {
          await rm(script, { force: true });
        }
        await rm(full, { force: true });
        removed.push(script);
      }
    }
    return { removed };
  }

  async #reusable(
    target: string,
    sha256: string,
    schema: ParametersSchema | null,
  ): Promise<MaterializedScript | undefined> {
    let resolved: ResolvedScript;
    try {
      resolved = await this.resolve(target, { sha256 });
    } catch {
      return undefined; // Missing, expired or damaged: write it afresh.
    }
    if (resolved.metadata === null) return undefined;
    const descriptor = { ...resolved.metadata, reused: true };
    if (!jsonEqual(descriptor.parametersSchema, schema)) return undefined;
    return descriptor;
  }

  #checkSidecar(
    sidecar: Record<string, unknown>,
    realPath: string,
    sha256: string,
    size: number,
  ): void {
    if (sidecar["sha256"] !== sha256 || sidecar["bytes"] !== size) {
      throw new ScriptHashMismatchError({
        filePath: realPath,
        expected: String(sidecar["sha256"]),
        actual: sha256,
        source: "sidecar",
      });
    }
    const recordedPath = sidecar["filePath"];
    if (recordedPath !== undefined && recordedPath !== realPath) {
      throw new ScriptMetadataError({ filePath: realPath, detail: "it records another filePath" });
    }
    const expiresAt = sidecar["expiresAt"];
    if (expiresAt === undefined || expiresAt === null) return;
    const expires = parseUtc(expiresAt);
    if (expires === undefined) {
      throw new ScriptMetadataError({ filePath: realPath, detail: "expiresAt is not a UTC time" });
    }
    if (expires <= this.#now()) {
      throw new ScriptExpiredError({ filePath: realPath, expiresAt: expiresAt as string });
    }
  }
}
