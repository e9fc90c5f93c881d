// A stdio MCP server process for the tests: the real executor over the test host commands.
// Run with `node --conditions=@dcc/source --import tsx stdio-entry.ts`. Reports on stderr (never
// stdout, which carries the protocol): "STARTED <command>" as host commands start, and
// "JOURNAL <json>" on exit. With DCC_TEST_SCRIPTS_DIR set, scripts that only define main() are
// stored there (materialized scripts).
import { runStdioServer } from "../stdio-server.ts";
import { createTestExecutor } from "./test-executor.ts";

const scriptsRoot = process.env["DCC_TEST_SCRIPTS_DIR"];
const test = createTestExecutor("maya", scriptsRoot === undefined ? {} : { scriptsRoot });
let reported = 0;
const reporter = setInterval(() => {
  for (; reported < test.journal.calls.length; reported++) {
    process.stderr.write(`STARTED ${test.journal.calls[reported]}\n`);
  }
}, 2);
const server = await runStdioServer({ name: "stdio-test", executors: [test.real] });
await server.closed;
// A host command notices a cancel at its next check, which may come after the script stopped.
await test.idle();
clearInterval(reporter);
process.stderr.write(`JOURNAL ${JSON.stringify(test.journal)}\n`);
await test.close();
process.exit(0);
