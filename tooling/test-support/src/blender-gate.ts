import { spawnSync } from "node:child_process";
import { describe } from "vitest";

/** What installs everything the Blender tests need on Debian. */
export const blenderInstallCommand = "apt-get install -y blender python3-numpy xvfb";

const blender = process.env["BLENDER_BIN"] ?? "blender";
/** Whether a Blender runs here (`BLENDER_BIN`, else `blender` on `PATH`). */
export const hasBlender: boolean =
  spawnSync(blender, ["--version"], { timeout: 60_000 }).status === 0;
/** CI sets `DCC_REQUIRE_BLENDER=1`: a missing Blender is then a failure, not a skip. */
export const requireBlender: boolean = process.env["DCC_REQUIRE_BLENDER"] === "1";

/**
 * `describe` for tests that drive a real Blender: skipped, with the install command in the title
 * and a warning, when Blender is missing; run (and failing in `assertBlender`) when
 * `DCC_REQUIRE_BLENDER=1`.
 */
export function describeWithBlender(
  name: string,
  options: { timeout?: number } | (() => void),
  body?: () => void,
): void {
  const run = typeof options === "function" ? options : (body as () => void);
  const settings = typeof options === "function" ? {} : options;
  if (hasBlender) {
    describe(name, settings, run);
    return;
  }
  if (requireBlender) {
    describe(
      `${name} (DCC_REQUIRE_BLENDER=1, but no Blender: ${blenderInstallCommand})`,
      settings,
      run,
    );
    return;
  }
  console.warn(`Blender is not installed: "${name}" is skipped (${blenderInstallCommand}).`);
  describe.skip(
    `${name} (skipped: no Blender; install with ${blenderInstallCommand})`,
    settings,
    run,
  );
}

/** Throws, failing the test, when Blender is required but missing. Call in `beforeAll`. */
export function assertBlender(): void {
  if (!hasBlender) {
    throw new Error(`DCC_REQUIRE_BLENDER=1 but Blender cannot run: ${blenderInstallCommand}`);
  }
}
