import { defineDccProject } from "@dcc/vitest-config";

export default defineDccProject({ name: "example-linked" });
