// The Maya side's plain-Python unit tests (policy over the generated rule data, values, the
// stand-in's strictness), each a vitest test.
import { fileURLToPath } from "node:url";
import { describePythonUnitTests } from "@dcc/test-support";
import { commandsData } from "./support/stand-in-paths.ts";

describePythonUnitTests({
  testsDir: fileURLToPath(new URL("../python/tests", import.meta.url)),
  atLeast: 16,
  env: { DCC_MAYA_STAND_IN_COMMANDS: commandsData },
});
