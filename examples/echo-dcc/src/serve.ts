#!/usr/bin/env node
// Serves the echo DCC over MCP (Streamable HTTP): node serve.js [port]. Ctrl-C stops it.
import { createDccServer } from "@dcc/mcp-bridge";
import { createEchoAdapter } from "./echo-adapter.ts";

const server = await createDccServer({
  adapters: [createEchoAdapter()],
  port: Number(process.argv[2] ?? 8766),
});
process.stderr.write(`echo DCC at ${server.url}\n`);
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => void server.close().then(() => process.exit(0)));
}
