import type { UserConfig } from "vitest/config";

/** Options for {@link defineDccProject}. */
export interface DccProjectOptions {
  /** Project name shown in vitest output. */
  name: string;
  /** Test file globs; defaults to `src/**\/*.test.ts` and `test/**\/*.test.ts`. */
  include?: string[];
  /** Per-test timeout in milliseconds; defaults to 120 000 (hooks get 120 000 too). */
  testTimeout?: number;
  /** Files run before each test file. */
  setupFiles?: string[];
  /** Lets a package with no tests yet pass; off by default. */
  passWithNoTests?: boolean;
}

/** Vitest settings shared by every workspace package. */
export declare function defineDccProject(options: DccProjectOptions): UserConfig;
