import { describe, expect, it } from "vitest";
import { CatalogErrorCode } from "../catalog-error-code.ts";
import { CatalogLineError } from "../catalog-line-error.ts";
import { parseCatalogText } from "./parse-catalog-text.ts";

describe("parseCatalogText", () => {
  it("splits on the first ' - ' and strips both parts", () => {
    expect(parseCatalogText("xform - Transform - with dash")).toEqual([
      { name: "xform", description: "Transform - with dash" },
    ]);
  });

  it("keeps whole lines as names when there is no ' - ' separator", () => {
    expect(parseCatalogText("foo-bar\nname -\ntab\t-\tdesc\n - leading")).toEqual([
      { name: "foo-bar", description: "" },
      { name: "name -", description: "" },
      { name: "tab\t-\tdesc", description: "" },
      { name: "- leading", description: "" },
    ]);
  });

  it("skips blank and # lines and gives parsed records no signature", () => {
    const records = parseCatalogText("# header\n\n   \npolyCube - Create a cube\n  # indented");
    expect(records).toEqual([{ name: "polyCube", description: "Create a cube" }]);
    expect(records[0]).not.toHaveProperty("signature");
  });

  it("breaks and strips lines the way Python does", () => {
    const text = "a - one\u2028b - two\x1cc - three\r\nd - four\x85e\v\x1f f \x1f\f\ufefff";
    expect(parseCatalogText(text).map((record) => record.name)).toEqual([
      "a",
      "b",
      "c",
      "d",
      "e",
      "f",
      "\ufefff",
    ]);
  });

  it("reports a line with no usable name with its line number", () => {
    let caught: unknown;
    try {
      parseCatalogText("polyCube - cube\n\n--- - a divider\nx - y");
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(CatalogLineError);
    expect((caught as CatalogLineError).code).toBe(CatalogErrorCode.InvalidCatalogLine);
    expect((caught as CatalogLineError).lineNumber).toBe(3);
    expect((caught as CatalogLineError).line).toBe("--- - a divider");
  });
});
