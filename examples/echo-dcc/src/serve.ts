#!/usr/bin/env node
// Serves the echo DCC over MCP (Streamable HTTP): node serve.js [port]. Ctrl-C stops it.
import { createDccServer } from "@dcc/mcp-bridge";
import { createEchoAdapter } from "./echo-adapter.ts";

if (process.argv[2] === "--help" || process.argv[2] === "-h") {
  process.stdout.write(
    "Usage: dcc-echo-server [port]\nServes the echo DCC over MCP (Streamable HTTP) on port (default 8766).\n",
  );
  process.exit(0);
}

const server = await createDccServer({
  adapters: [createEchoAdapter()],
  port: Number(process.argv[2] ?? 8766),
});
process.stderr.write(`echo DCC at ${server.url}\n`);
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => void server.close().then(() => process.exit(0)));
}
