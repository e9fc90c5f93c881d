// A stdio MCP server process for the tests: the real executor over the test host commands.
// Run with `node --conditions=@dcc/source --import tsx stdio-entry.ts`.
import { runStdioServer } from "../stdio-server.ts";
import { createTestExecutor } from "./test-executor.ts";

const test = createTestExecutor("maya");
const server = await runStdioServer({ name: "stdio-test", executors: [test.real] });
await server.closed;
await test.close();
process.exit(0);
