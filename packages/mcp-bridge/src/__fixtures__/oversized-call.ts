// A client in a process of its own that sends a 10 MB script to the server at `url`, `attempts`
// times, with a plain fetch or with the official SDK client of `revision`, and prints what it saw
// as one JSON line. A process of its own because a client in the server's process shares its
// event loop, which hides the race between the server's close and the client's read.
import { connectClient, type Revision } from "@dcc/mcp-test-clients";
import { initializeBody, jsonRpcHeaders, modernBody, modernHeaders } from "./raw-http.ts";

const [url, revisionText, mode, attemptsText] = process.argv.slice(2) as [
  string,
  string,
  string,
  string,
];
const revision = revisionText as Revision;
const code = `return "${"x".repeat(10 * 1024 * 1024)}".length;`;
const seen: unknown[] = [];

async function viaFetch(): Promise<unknown> {
  let headers = jsonRpcHeaders;
  let body: string;
  if (revision === "2025-11-25") {
    const opened = await fetch(url, { method: "POST", headers, body: initializeBody });
    await opened.text();
    const session = opened.headers.get("mcp-session-id") ?? "";
    headers = { ...headers, "mcp-session-id": session, "mcp-protocol-version": revision };
    const params = { name: "dcc_execute", arguments: { code } };
    body = JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/call", params });
  } else {
    headers = modernHeaders("tools/call", "dcc_execute");
    body = modernBody(2, "tools/call", { name: "dcc_execute", arguments: { code } });
  }
  try {
    const response = await fetch(url, { method: "POST", headers, body });
    return {
      status: response.status,
      connection: response.headers.get("connection"),
      body: await response.json(),
    };
  } catch (error) {
    const cause = (error as { cause?: { message?: string } }).cause;
    return { failed: `${(error as Error).message}: ${cause?.message ?? ""}` };
  }
}

async function viaSdk(): Promise<unknown> {
  const { client } = await connectClient(revision, { kind: "http", url });
  try {
    let refused: string | undefined;
    try {
      await client.callTool({ name: "dcc_execute", arguments: { code } });
    } catch (error) {
      refused = (error as Error).message;
    }
    const after = await client.callTool({
      name: "dcc_execute",
      arguments: { code: "return 1 + 1" },
    });
    return { refused, after: after.structuredContent?.["output"] };
  } finally {
    await client.close();
  }
}

for (let attempt = 0; attempt < Number(attemptsText); attempt++) {
  seen.push(mode === "fetch" ? await viaFetch() : await viaSdk());
}
process.stdout.write(`${JSON.stringify(seen)}\n`);
