// A client in a process of its own (as a real one is: in the server's process it would share
// the event loop, which hides the race between the server closing the connection and the client
// reading the answer): sends a 10 MB script with the official SDK client of `revision`, then a
// trivial one, three times, and prints what it saw as one JSON line.
import { connectClient, type Revision } from "@dcc/mcp-test-clients";

const [url, revision] = process.argv.slice(2) as [string, Revision];
const { client } = await connectClient(revision, { kind: "http", url });
const seen: Array<{ refused?: string; after?: unknown }> = [];
// Three times: before the fix, most attempts (not all) saw "fetch failed".
for (let attempt = 0; attempt < 3; attempt++) {
  let refused: string | undefined;
  try {
    const code = `return "${"x".repeat(10 * 1024 * 1024)}".length;`;
    await client.callTool({ name: "dcc_execute", arguments: { code } });
  } catch (error) {
    refused = (error as Error).message;
  }
  const after = await client.callTool({ name: "dcc_execute", arguments: { code: "return 1 + 1" } });
  seen.push({
    ...(refused === undefined ? {} : { refused }),
    after: after.structuredContent?.["output"],
  });
}
await client.close();
process.stdout.write(`${JSON.stringify(seen)}\n`);
