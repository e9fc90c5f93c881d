// The committed policy marks and reviewed list follow python/dcc_blender/policy.py and the
// committed operators of every tested Blender.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  operatorPolicyText,
  POLICY_OUTPUT_PATH,
  REVIEWED_OUTPUT_PATH,
  reviewedOperatorsText,
} from "../../scripts/generate-operator-policy.mjs";
import { operatorPolicy, reviewedOperators } from "./operator-policy.ts";

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

  it("refuses the newer Blenders' families that run code, install extensions or reach out", () => {
    const rules = (name: string) => operatorPolicy().get(name)?.rule;
    expect(rules("extensions.package_install_files")).toBe("extensions");
    expect(rules("extensions.repo_sync_all")).toBe("extensions");
    expect(rules("preferences.extension_repo_add")).toBe("preferences");
    expect(rules("preferences.script_directory_add")).toBe("preferences");
    expect(rules("wm.url_open_preset")).toBe("external-apps");
    expect(rules("asset.assets_download")).toBe("network");
    expect(rules("brush.asset_save")).toBe("asset-library-files");
    expect(rules("file.external_operation")).toBe("external-apps");
    expect(rules("wm.interface_theme_preset_save")).toBe("preset-files");
    expect(rules("wm.stl_export")).toBeUndefined();
  });
});

describe("python/dcc_blender/reviewed_operators.generated.json", () => {
  it("is every operator of the tested Blenders, as the generator writes it", () => {
    expect(readFileSync(REVIEWED_OUTPUT_PATH, "utf8")).toBe(reviewedOperatorsText());
    const reviewed = reviewedOperators();
    for (const name of [
      "export_scene.obj",
      "wm.obj_export",
      "wm.stl_export",
      "grease_pencil.stroke_smooth",
    ]) {
      expect(reviewed.has(name), name).toBe(true);
    }
    expect(reviewed.has("my_addon.do_things")).toBe(false);
  });
});
