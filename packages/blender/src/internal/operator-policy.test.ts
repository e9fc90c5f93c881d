// The committed policy marks follow python/dcc_blender/policy.py and the committed operators.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { operatorPolicyText, POLICY_OUTPUT_PATH } from "../../scripts/generate-operator-policy.mjs";
import { operatorPolicy } from "./operator-policy.ts";

describe("src/data/operator-policy.generated.json", () => {
  it("is what scripts/generate-operator-policy.mjs writes from the policy's rules", () => {
    expect(readFileSync(POLICY_OUTPUT_PATH, "utf8")).toBe(operatorPolicyText());
  });

  it("is read as operator id -> rule and reason", () => {
    expect(operatorPolicy().get("text.run_script")).toEqual({
      rule: "python-scripts",
      reason: expect.any(String),
    });
    expect(operatorPolicy().has("object.delete")).toBe(false);
  });
});
