#!/usr/bin/env node
// Serves the tiny DCC over MCP (Streamable HTTP): node serve.js [port] [dataDir]. Ctrl-C stops it.
import { createDccServer } from "@dcc/mcp-bridge";
import { createTinyAdapter } from "./tiny-adapter.ts";

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
