import { fileURLToPath } from "node:url";
import { describePythonUnitTests } from "./python-unit.ts";

// The reaper's Python unit tests (python/tests, stdlib unittest), each a vitest test.
describePythonUnitTests({
  testsDir: fileURLToPath(new URL("../python/tests", import.meta.url)),
  atLeast: 3,
});
