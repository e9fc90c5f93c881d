// Plain JavaScript on purpose: vitest loads its config through Node, which cannot import `.ts`
// from node_modules on Node 20.
import { defineConfig } from "vitest/config";

/**
 * Resolve workspace packages to their TypeScript sources, so tests need no build. Not `module`:
 * vitest hands these conditions to Node too, and OpenTelemetry's `module` builds only load
 * through a bundler (extensionless imports); Node itself never picks them in production.
 */
const conditions = ["@dcc/source", "node", "development|production"];

/**
 * Vitest settings shared by every workspace package.
 * @param {{ name: string, include?: string[], testTimeout?: number, setupFiles?: string[], passWithNoTests?: boolean }} options
 */
export function defineDccProject(options) {
  return defineConfig({
    resolve: { conditions },
    ssr: { resolve: { conditions } },
    test: {
      name: options.name,
      include: options.include ?? ["src/**/*.test.ts", "test/**/*.test.ts"],
      environment: "node",
      // Bounds for a loaded 2-core machine with every suite running at once (turbo runs the
      // packages in parallel). A test's own waits stay well below these, so a failure names what
      // it waited for rather than "test timed out".
      testTimeout: options.testTimeout ?? 120_000,
      hookTimeout: 120_000,
      setupFiles: options.setupFiles ?? [],
      passWithNoTests: options.passWithNoTests ?? false,
      // The JSON file is what `.ci/run` counts; turbo caches it with the task.
      reporters: ["default", ["json", { outputFile: ".vitest/results.json" }]],
      typecheck: { enabled: false },
    },
  });
}
