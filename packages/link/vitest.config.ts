import { defineDccProject } from "@dcc/vitest-config";

// Every test starts real Python hosts; on a loaded 2-core machine a start alone can take
// seconds, so the bound is generous.
export default defineDccProject({ name: "link", testTimeout: 60_000 });
