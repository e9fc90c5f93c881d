// Both official clients behind one small interface, so an end-to-end test runs once per protocol
// revision: the SDK v1 client speaks 2025-11-25 (a stateful session), the SDK v2 client pinned to
// 2026-07-28 sends every request on its own with the per-request _meta envelope.
import {
  Client as ModernClient,
  StreamableHTTPClientTransport as ModernHttpTransport,
} from "@modelcontextprotocol/client";
import { StdioClientTransport as ModernStdioTransport } from "@modelcontextprotocol/client/stdio";
import { Client as LegacyClient } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport as LegacyStdioTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport as LegacyHttpTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  ElicitRequestSchema,
  LoggingMessageNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";

/** The protocol revisions the bridge serves. */
export type Revision = "2025-11-25" | "2026-07-28";

/** Both revisions, for `describe.each`. */
export const revisions: readonly Revision[] = ["2025-11-25", "2026-07-28"];

/** A tool result as the tests read it. */
export interface ToolResult {
  /** `text` for text content; `data` (base64) and `mimeType` for image content. */
  content: { type: string; text: string; data?: string; mimeType?: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

/** A listed tool as the tests read it. */
export interface ListedTool {
  name: string;
  description?: string;
  title?: string;
  inputSchema: { required?: string[]; properties?: Record<string, Record<string, unknown>> };
  outputSchema?: { required?: string[]; properties?: Record<string, Record<string, unknown>> };
  annotations?: Record<string, unknown>;
}

/** Per-call options both clients understand. */
export interface CallOptions {
  onprogress?: (progress: {
    progress: number;
    total?: number | undefined;
    message?: string | undefined;
  }) => void;
  signal?: AbortSignal;
  timeout?: number;
  resetTimeoutOnProgress?: boolean;
}

/** The part of a client the tests use. */
export interface TestClient {
  readonly revision: Revision;
  listTools(): Promise<{ tools: ListedTool[] }>;
  callTool(
    params: { name: string; arguments?: Record<string, unknown>; _meta?: Record<string, unknown> },
    options?: CallOptions,
  ): Promise<ToolResult>;
  /** Asks for console lines at `level`: logging/setLevel on 2025, the request envelope on 2026. */
  setLogLevel(level: "debug" | "info" | "warning" | "error"): Promise<void>;
  /** Receives every notifications/message. */
  onLog(handler: (params: Record<string, unknown>) => void): void;
  getInstructions(): string | undefined;
  getServerVersion(): { name: string; version: string } | undefined;
  /** Ends a 2025-11-25 HTTP session with DELETE; 2026-07-28 has no sessions to end. */
  terminateSession(): Promise<void>;
  /** The revision the connection actually uses. */
  protocolVersion(): string | undefined;
  close(): Promise<void>;
}

/** An elicitation request's params as the tests read them (form mode). */
export interface ElicitParams {
  mode?: string;
  message: string;
  requestedSchema?: Record<string, unknown>;
}

/** A client's answer to an elicitation. */
export interface ElicitAnswer {
  action: "accept" | "decline" | "cancel";
  content?: Record<string, string | number | boolean | string[]>;
}

/** What a client declares and answers beyond tools. */
export interface ClientFeatures {
  /**
   * Declares form-mode elicitation and answers each request: through `elicitation/create`
   * (2025-11-25) or the `input_required` rounds of a call (2026-07-28). `signal` aborts when the
   * server withdraws the question (2025-11-25) or the call is given up.
   */
  onElicit?: (params: ElicitParams, signal: AbortSignal) => Promise<ElicitAnswer>;
}

/** Where a client connects to. */
export type ClientTarget =
  | { kind: "http"; url: string; headers?: Record<string, string> }
  | {
      kind: "stdio";
      command: string;
      args: string[];
      cwd?: string;
      env?: Record<string, string>;
      stderr?: "pipe" | "ignore";
    };

/** A connected client of `revision`, plus the stdio transport's stderr when asked for. */
export async function connectClient(
  revision: Revision,
  target: ClientTarget,
  features: ClientFeatures = {},
): Promise<{ client: TestClient; stderr: NodeJS.ReadableStream | null }> {
  return revision === "2025-11-25"
    ? connectLegacy(target, features)
    : connectModern(target, features);
}

const elicitation = { elicitation: { form: {} } } as const;

type StdioTarget = Extract<ClientTarget, { kind: "stdio" }>;

/** The spawn parameters both SDKs' stdio transports take. */
function stdioParameters(target: StdioTarget) {
  return {
    command: target.command,
    args: target.args,
    ...(target.cwd === undefined ? {} : { cwd: target.cwd }),
    ...(target.env === undefined ? {} : { env: target.env }),
    stderr: target.stderr ?? "pipe",
  } as const;
}

async function connectLegacy(
  target: ClientTarget,
  features: ClientFeatures,
): Promise<{ client: TestClient; stderr: NodeJS.ReadableStream | null }> {
  const { onElicit } = features;
  const client = new LegacyClient(
    { name: "test-client", version: "1.0.0" },
    onElicit === undefined ? {} : { capabilities: elicitation },
  );
  if (onElicit !== undefined) {
    client.setRequestHandler(ElicitRequestSchema, async (request, extra) => ({
      ...(await onElicit(request.params as ElicitParams, extra.signal)),
    }));
  }
  let stderr: NodeJS.ReadableStream | null = null;
  if (target.kind === "http") {
    await client.connect(
      new LegacyHttpTransport(new URL(target.url), {
        requestInit: { headers: target.headers ?? {} },
      }),
    );
  } else {
    const transport = new LegacyStdioTransport(stdioParameters(target));
    await client.connect(transport);
    stderr = transport.stderr as NodeJS.ReadableStream | null;
  }
  return {
    stderr,
    client: {
      revision: "2025-11-25",
      listTools: () => client.listTools() as Promise<{ tools: ListedTool[] }>,
      callTool: (params, options) =>
        client.callTool(params, undefined, options) as Promise<ToolResult>,
      setLogLevel: async (level) => {
        await client.setLoggingLevel(level);
      },
      onLog: (handler) =>
        client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) =>
          handler(notification.params as Record<string, unknown>),
        ),
      getInstructions: () => client.getInstructions(),
      getServerVersion: () => client.getServerVersion(),
      terminateSession: async () => {
        if (!(client.transport instanceof LegacyHttpTransport)) throw new Error("not over HTTP");
        await client.transport.terminateSession();
      },
      protocolVersion: () =>
        (client.transport as { protocolVersion?: string } | undefined)?.protocolVersion ??
        "2025-11-25",
      close: () => client.close(),
    },
  };
}

async function connectModern(
  target: ClientTarget,
  features: ClientFeatures,
): Promise<{ client: TestClient; stderr: NodeJS.ReadableStream | null }> {
  const { onElicit } = features;
  const client = new ModernClient(
    { name: "test-client", version: "1.0.0" },
    {
      versionNegotiation: { mode: { pin: "2026-07-28" } },
      ...(onElicit === undefined ? {} : { capabilities: elicitation }),
    },
  );
  if (onElicit !== undefined) {
    client.setRequestHandler("elicitation/create", async (request, context) => ({
      ...(await onElicit(request.params as ElicitParams, context.mcpReq.signal)),
    }));
  }
  let stderr: NodeJS.ReadableStream | null = null;
  if (target.kind === "http") {
    await client.connect(
      new ModernHttpTransport(new URL(target.url), {
        requestInit: { headers: target.headers ?? {} },
      }),
    );
  } else {
    const transport = new ModernStdioTransport(stdioParameters(target));
    await client.connect(transport);
    stderr = transport.stderr as NodeJS.ReadableStream | null;
  }
  // 2026-07-28 has no logging/setLevel: a client asks per request, in the _meta envelope.
  let logLevel: string | undefined;
  return {
    stderr,
    client: {
      revision: "2026-07-28",
      listTools: () => client.listTools() as Promise<{ tools: ListedTool[] }>,
      callTool: (params, options) => {
        const meta =
          logLevel === undefined
            ? params._meta
            : { ...params._meta, "io.modelcontextprotocol/logLevel": logLevel };
        return client.callTool(
          { ...params, ...(meta === undefined ? {} : { _meta: meta }) },
          options,
        ) as Promise<ToolResult>;
      },
      setLogLevel: async (level) => {
        logLevel = level;
      },
      onLog: (handler) =>
        client.setNotificationHandler("notifications/message", (notification) =>
          handler(notification.params as Record<string, unknown>),
        ),
      getInstructions: () => client.getInstructions(),
      getServerVersion: () => client.getServerVersion(),
      terminateSession: async () => {
        throw new Error("2026-07-28 has no sessions");
      },
      protocolVersion: () => client.getNegotiatedProtocolVersion(),
      close: () => client.close(),
    },
  };
}
