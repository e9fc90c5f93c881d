import { defineDccProject } from "@dcc/vitest-config";

export default defineDccProject({ name: "reliability", testTimeout: 60_000 });
