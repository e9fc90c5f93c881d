import { defineDccProject } from "@dcc/vitest-config";

// The tests start real processes under the reaper; a loaded machine can be slow to start them.
export default defineDccProject({ name: "test-support", testTimeout: 120_000 });
