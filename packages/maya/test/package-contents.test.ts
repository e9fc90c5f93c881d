// The published package ships the Maya side (dcc_maya, the plug-in, the rule data) and never
// the tests' stand-in `maya` package.
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";

it("packs the Maya side without the stand-in", () => {
  const output = execFileSync("pnpm", ["pack", "--dry-run"], {
    cwd: fileURLToPath(new URL("..", import.meta.url)),
    encoding: "utf8",
    timeout: 120_000,
  });
  expect(output).toContain("python/dcc_maya/startup.py");
  expect(output).toContain("python/dcc_maya/policy.generated.json");
  expect(output).toContain("python/plug-ins/dcc_maya_link.py");
  expect(output).toContain("python/user-setup/userSetup.py");
  expect(output).not.toContain("stand_in");
  expect(output).not.toContain("python/tests");
});
