import type { CliConfig } from "./parse-cli-arguments.ts";

/** What `--check` prints: the server a command line would start, with no secret in it. */
export interface ConfigDescription {
  transport: "http" | "stdio";
  /** The MCP endpoint, for HTTP. */
  url?: string;
  dcc: string[];
  /** Which Maya `maya` is: `simulated`, `mayapy` or `attach`. */
  maya: string;
  blender: "launch" | "attach";
  dataDir: string;
  scriptsDir: string;
  /** How clients authenticate: `none`, `token`, `labelled tokens (n)` or both. */
  auth: string;
  audit: string | null;
  /** The farm's Redis as host:port, never its password. */
  farm: string | null;
  /** The approval rules that are on (`--ask`), and how long a question waits, in seconds. */
  ask: { rules: string[]; timeoutSecs: number } | null;
}

/** Describes `config` for `--check`: what a client configuration would start, without secrets. */
export function describeConfig(config: CliConfig): ConfigDescription {
  const auth = [
    ...(config.token === undefined ? [] : ["token"]),
    ...(config.tokens === undefined ? [] : [`labelled tokens (${config.tokens.length})`]),
  ];
  const host = config.host.includes(":") ? `[${config.host}]` : config.host;
  return {
    transport: config.transport,
    ...(config.transport === "http" ? { url: `http://${host}:${config.port}/mcp` } : {}),
    dcc: config.dcc ?? ["maya"],
    maya: config.maya.kind,
    blender: config.blenderAttach === undefined ? "launch" : "attach",
    dataDir: config.dataDir,
    scriptsDir: config.scriptsDir,
    auth: auth.length === 0 ? "none" : auth.join(" and "),
    audit: config.audit?.file ?? null,
    farm: config.farm === undefined ? null : farmAddress(config.farm.url),
    ask:
      config.approval === undefined
        ? null
        : { rules: [...config.approval.ask], timeoutSecs: config.approval.timeoutSecs ?? 120 },
  };
}

function farmAddress(url: string | undefined): string {
  if (url === undefined) return "127.0.0.1:6379";
  const parsed = new URL(url);
  return `${parsed.hostname}:${parsed.port === "" ? "6379" : parsed.port}`;
}
