export {
  assertBlender,
  blenderInstallCommand,
  describeWithBlender,
  hasBlender,
  requireBlender,
} from "./blender-gate.ts";
export { commandLineOf, descendantsOf, processAlive, processesOf } from "./processes.ts";
export {
  describePythonUnitTests,
  linkPythonDir,
  type PythonTestRecord,
  type PythonUnitTestsOptions,
} from "./python-unit.ts";
export { waitFor } from "./wait-for.ts";
