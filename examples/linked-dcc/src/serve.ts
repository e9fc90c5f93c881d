#!/usr/bin/env node
// Serves the tiny DCC over MCP (Streamable HTTP): node serve.js [port] [dataDir]. Ctrl-C stops it.
import { createDccServer } from "@dcc/mcp-bridge";
import { createTinyAdapter } from "./tiny-adapter.ts";

if (process.argv[2] === "--help" || process.argv[2] === "-h") {
  process.stdout.write(
    "Usage: dcc-tiny-server [port] [dataDir]\nServes the tiny DCC over MCP (Streamable HTTP) on port (default 8767), its files in dataDir (default tiny-data).\n",
  );
  process.exit(0);
}

const adapter = createTinyAdapter({
  dataDir: process.argv[3] ?? "tiny-data",
  onOutput: (text) => process.stderr.write(text),
  onEvent: (event) => process.stderr.write(`tiny DCC ${event.type}: ${JSON.stringify(event)}\n`),
});
const server = await createDccServer({
  adapters: [adapter],
  port: Number(process.argv[2] ?? 8767),
});
process.stderr.write(`tiny DCC at ${server.url}\n`);
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => void server.close().then(() => process.exit(0)));
}
