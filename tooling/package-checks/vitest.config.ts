import { defineDccProject } from "@dcc/vitest-config";

export default defineDccProject({ name: "package-checks", testTimeout: 600_000 });
