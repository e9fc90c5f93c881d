#!/usr/bin/env node
import { startMinimalServer } from "./minimal-server.ts";

const port = Number(process.env["DCC_MCP_PORT"] ?? 8765);
const handle = await startMinimalServer({ port, host: process.env["DCC_MCP_HOST"] ?? "127.0.0.1" });
process.stderr.write(`dcc reference server: MCP at ${handle.url}\n`);
process.once("SIGINT", () => void handle.close().then(() => process.exit(0)));
