import { defineDccProject } from "@dcc/vitest-config";
import { mergeConfig } from "vitest/config";

// One file at a time: the suites load the machine on purpose, so they should not also load each
// other. No test bounds speed; the generous timeouts only catch a server that stops answering.
export default mergeConfig(defineDccProject({ name: "reliability", testTimeout: 180_000 }), {
  test: { fileParallelism: false },
});
