import { spawnSync } from "node:child_process";
import { describe } from "vitest";

/** What installs everything the Blender tests need on Debian. */
export const installCommand = "apt-get install -y blender python3-numpy xvfb";

const blender = process.env["BLENDER_BIN"] ?? "blender";
/** Whether a Blender runs here. */
export const hasBlender = spawnSync(blender, ["--version"], { timeout: 60_000 }).status === 0;
/** CI sets this: a missing Blender is then a failure, not a skip. */
export const requireBlender = process.env["DCC_REQUIRE_BLENDER"] === "1";

/**
 * `describe` for tests that drive a real Blender: skipped, with the install command in the title
 * and a warning, when Blender is missing; failing in every test when `DCC_REQUIRE_BLENDER=1`.
 */
export function describeWithBlender(name: string, body: () => void): void {
  if (hasBlender) {
    describe(name, body);
    return;
  }
  if (requireBlender) {
    describe(`${name} (DCC_REQUIRE_BLENDER=1, but no Blender: ${installCommand})`, () => {
      body();
    });
    return;
  }
  console.warn(`Blender is not installed: "${name}" is skipped (${installCommand}).`);
  describe.skip(`${name} (skipped: no Blender; install with ${installCommand})`, body);
}

/** Throws, failing the test, when Blender is required but missing. Call in `beforeAll`. */
export function assertBlender(): void {
  if (!hasBlender)
    throw new Error(`DCC_REQUIRE_BLENDER=1 but Blender cannot run: ${installCommand}`);
}
