import { dccSandboxSupport } from "@dcc/link";

/** What installs the OS sandbox on Debian. */
export const bwrapInstallCommand = "apt-get install -y bubblewrap";

/**
 * The OS sandbox of every other Blender test, from `DCC_BLENDER_TEST_SANDBOX` (`off` where
 * Blender itself runs in a bwrap root, which cannot start another sandbox inside: see
 * tooling/blender-roots); the adapter's default (`auto`) when unset.
 */
export const testSandbox: "off" | undefined =
  process.env["DCC_BLENDER_TEST_SANDBOX"] === "off" ? "off" : undefined;

/**
 * Whether the sandbox tests run: where bwrap makes a sandbox, and (to fail there) wherever CI
 * requires it with `DCC_REQUIRE_BWRAP=1`; never where the tests' Blender runs in a root.
 */
export const runSandboxTests =
  testSandbox !== "off" &&
  ((await dccSandboxSupport()).available || process.env["DCC_REQUIRE_BWRAP"] === "1");

if (testSandbox === "off") {
  console.warn("DCC_BLENDER_TEST_SANDBOX=off: the Blender sandbox tests are skipped.");
} else if (!runSandboxTests) {
  console.warn(
    `bwrap cannot run here: the Blender sandbox tests are skipped (${bwrapInstallCommand}).`,
  );
}
