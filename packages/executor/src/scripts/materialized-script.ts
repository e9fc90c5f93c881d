import type { ParametersSchema } from "./analyze-script.ts";

/** A `file://` reference to a materialized script, as MCP clients and audit logs consume it. */
export interface ScriptFileRef {
  /** `file://` URI of the script. */
  uri: string;
  /** `sha256:<hex>`. */
  digest: string;
  /** Size in bytes. */
  sizeBytes: number;
  /** The file name. */
  displayName: string;
}

/**
 * Descriptor of a script written by {@link ScriptStore.materialize}; also the content of its
 * `<file>.meta.json` sidecar (without `reused`).
 */
export interface MaterializedScript {
  /** Absolute path of the script, with symlinks of the root resolved. */
  filePath: string;
  /** Hex sha256 of the UTF-8 bytes. */
  sha256: string;
  /** Number of UTF-8 bytes. */
  bytes: number;
  /** True when an existing file with the same key and content was returned without rewriting. */
  reused: boolean;
  /** When the file was first written, `YYYY-MM-DDTHH:MM:SSZ`. */
  createdAt: string;
  /** When it expires, or null when it is kept until removed. */
  expiresAt: string | null;
  /** Its time to live in seconds, or null. */
  ttlSecs: number | null;
  /** Sanitised DCC segment of the path. */
  dccType: string;
  /** Sanitised instance segment. */
  instanceId: string;
  /** Sanitised session segment. */
  sessionId: string;
  /** File name without suffix. */
  scriptId: string;
  /** Always "typescript": the sandbox reads JavaScript and TypeScript alike. */
  language: string;
  /** File suffix, e.g. ".ts". */
  suffix: string;
  /** The MCP tool call that wrote it, if given. */
  toolCallId: string | null;
  /** A caller correlation id, if given. */
  correlationId: string | null;
  /** Schema of `main`'s parameters, or null when the script has no `main`. */
  parametersSchema: ParametersSchema | null;
  /** File reference with URI and digest. */
  fileRef: ScriptFileRef;
}
