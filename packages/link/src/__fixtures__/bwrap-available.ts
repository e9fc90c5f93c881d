// Whether the OS sandbox can run here, for the tests that need it.
import { describe } from "vitest";
import { dccSandboxSupport } from "../dcc-sandbox-support.ts";

/** What installs the sandbox on Debian. */
export const bwrapInstallCommand = "apt-get install -y bubblewrap";

/** Whether bwrap makes a sandbox here (present, and user namespaces allowed). */
export const hasBwrap = (await dccSandboxSupport()).available;

/** CI sets this: a missing sandbox is then a failure, not a skip. */
export const requireBwrap = process.env["DCC_REQUIRE_BWRAP"] === "1";

/**
 * `describe` for tests of the sandbox itself: skipped with a warning where bwrap cannot run,
 * run (and failing) anyway when `DCC_REQUIRE_BWRAP=1`.
 */
export function describeWithBwrap(name: string, body: () => void): void {
  if (hasBwrap || requireBwrap) {
    const title = hasBwrap
      ? name
      : `${name} (DCC_REQUIRE_BWRAP=1, but no bwrap: ${bwrapInstallCommand})`;
    describe(title, body);
    return;
  }
  console.warn(`bwrap cannot run here: "${name}" is skipped (${bwrapInstallCommand}).`);
  describe.skip(`${name} (skipped: no bwrap; install with ${bwrapInstallCommand})`, body);
}
