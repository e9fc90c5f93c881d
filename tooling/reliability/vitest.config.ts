import { defineDccProject } from "@dcc/vitest-config";
import { mergeConfig } from "vitest/config";

// One file at a time: the suites load the machine on purpose, and the battery's "within the
// limit + 2 s" bound should not measure a neighbouring suite's load.
export default mergeConfig(defineDccProject({ name: "reliability", testTimeout: 60_000 }), {
  test: { fileParallelism: false },
});
