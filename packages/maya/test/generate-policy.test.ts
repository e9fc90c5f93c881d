// The committed rule data is what the generator makes from the catalog data today.
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";

it("python/dcc_maya/policy.generated.json is up to date", () => {
  const script = fileURLToPath(new URL("../scripts/generate-policy.mjs", import.meta.url));
  expect(() =>
    execFileSync(process.execPath, [script, "--check"], { encoding: "utf8", timeout: 120_000 }),
  ).not.toThrow();
});
