import { defineConfig } from "vitest/config";

// Runs every workspace project in one vitest process (`pnpm vitest`); `pnpm test` runs them
// per package through turbo instead, so results are cached.
export default defineConfig({
  test: { projects: ["packages/*", "apps/*", "examples/*", "tooling/*"] },
});
