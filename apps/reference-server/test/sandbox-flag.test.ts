import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { dccSandboxSupport } from "@dcc/link";
import {
  assertBlender,
  commandLineOf,
  descendantsOf,
  describeWithBlender,
} from "@dcc/test-support";
import { beforeAll, expect, it } from "vitest";
import { spawnCli, startupUrl, stopCli } from "./__fixtures__/mcp-helpers.ts";

// Where bwrap works a launched Blender is sandboxed by default; the flag and the variable must
// each turn that off for the Blender the server launches (and a bad value stop it at start).
const sandboxWorks =
  (await dccSandboxSupport()).available || process.env["DCC_REQUIRE_BWRAP"] === "1";

/** The command lines of what the CLI runs: Blender, and bwrap around it when sandboxed. */
function launched(pid: number): string[] {
  return descendantsOf(pid).map(commandLineOf);
}

describeWithBlender("the CLI's sandbox switch for launched DCCs", () => {
  beforeAll(() => assertBlender());

  it.runIf(sandboxWorks).each([
    ["by default", [], {}, true],
    ["with --sandbox off", ["--sandbox", "off"], {}, false],
    ["with DCC_SANDBOX=off", [], { DCC_SANDBOX: "off" }, false],
    ["with --sandbox on over DCC_SANDBOX=off", ["--sandbox", "on"], { DCC_SANDBOX: "off" }, true],
  ] as const)("runs Blender %s", async (_how, flags, env, sandboxed) => {
    const dataDir = mkdtempSync(join(tmpdir(), "dcc-cli-sandbox-"));
    const cli = spawnCli(["--dcc", "blender", "--port", "0", "--data-dir", dataDir, ...flags], env);
    try {
      await startupUrl(cli);
      const commands = launched(cli.child.pid as number);
      expect(commands.some((command) => /blender .*--factory-startup/.test(command))).toBe(true);
      expect(commands.some((command) => /^\S*bwrap /.test(command))).toBe(sandboxed);
      expect(await stopCli(cli, "SIGTERM")).toBe(0);
    } finally {
      if (cli.child.exitCode === null) cli.child.kill("SIGKILL");
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it("refuses a bad DCC_SANDBOX before starting anything", async () => {
    const cli = spawnCli(["--dcc", "blender", "--port", "0"], { DCC_SANDBOX: "yes" });
    expect(await cli.exited).toBe(2);
    expect(cli.stderr()).toContain('DCC_SANDBOX must be "auto", "on" or "off", not "yes"');
  });
});
