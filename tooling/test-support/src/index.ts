export {
  assertBlender,
  blenderInstallCommand,
  describeWithBlender,
  hasBlender,
  requireBlender,
} from "./blender-gate.ts";
export {
  type OtlpReceiver,
  type ReceivedExport,
  type ReceivedSpan,
  startOtlpReceiver,
} from "./otlp-receiver.ts";
export { commandLineOf, descendantsOf, processAlive, processesOf } from "./processes.ts";
export { type ParsedFamily, parsePrometheusText, prometheusSample } from "./prometheus.ts";
export {
  describePythonUnitTests,
  linkPythonDir,
  type PythonTestRecord,
  type PythonUnitTestsOptions,
} from "./python-unit.ts";
export { recordSpans } from "./record-spans.ts";
export { reaperScript, type SpawnTiedOptions, spawnTied } from "./spawn-tied.ts";
export { waitFor } from "./wait-for.ts";
