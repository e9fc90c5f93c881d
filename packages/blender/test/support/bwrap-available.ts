import { dccSandboxSupport } from "@dcc/link";

/** What installs the OS sandbox on Debian. */
export const bwrapInstallCommand = "apt-get install -y bubblewrap";

/**
 * Whether the sandbox tests run: where bwrap makes a sandbox, and (to fail there) wherever CI
 * requires it with `DCC_REQUIRE_BWRAP=1`.
 */
export const runSandboxTests =
  (await dccSandboxSupport()).available || process.env["DCC_REQUIRE_BWRAP"] === "1";

if (!runSandboxTests) {
  console.warn(
    `bwrap cannot run here: the Blender sandbox tests are skipped (${bwrapInstallCommand}).`,
  );
}
