// Who a call comes from: the label of the bearer token it used (set by the HTTP endpoint on the
// SDK's pass-through auth info, which reaches handlers of both protocol revisions) and the name
// the client gave in `initialize` (or its 2026-07-28 request envelope). Read by the tool-call
// event (audit, metrics) and by anything else that describes a call, such as traces.
import type { AuthInfo, McpServer, ServerContext } from "@modelcontextprotocol/server";

const labelKey = "dccTokenLabel";

/**
 * The auth info the endpoint attaches to a request that presented a labelled token. The secret
 * itself stays in the HTTP layer: handlers see the label only.
 */
export function labelledAuthInfo(label: string): AuthInfo {
  return { token: "", clientId: label, scopes: [], extra: { [labelKey]: label } };
}

/** The label of the labelled token an HTTP request presented (set on it by the endpoint). */
export function requestTokenLabel(request: object): string | undefined {
  const label = (request as { auth?: AuthInfo }).auth?.extra?.[labelKey];
  return typeof label === "string" ? label : undefined;
}

/** The label of the bearer token a call used, when it used a labelled one. */
export function tokenLabelOf(context: Pick<ServerContext, "http">): string | undefined {
  const label = context.http?.authInfo?.extra?.[labelKey];
  return typeof label === "string" ? label : undefined;
}

/** The client's own name, from `initialize` (2025-11-25) or its request envelope (2026-07-28). */
export function clientNameOf(server: McpServer): string | undefined {
  try {
    const name = server.server.getClientVersion()?.name;
    return typeof name === "string" && name !== "" ? name : undefined;
  } catch {
    return undefined;
  }
}
