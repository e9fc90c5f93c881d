import { describe, expect, it } from "vitest";
import { assertValidName, flattenNames, shapeNameFor, uniqueName, wildcard } from "./naming.ts";

describe("naming", () => {
  const taken = (names: string[]) => (name: string) => names.includes(name);

  it("numbers # with the first free number and increments clashing names", () => {
    expect(uniqueName("pSphere#", taken([]))).toBe("pSphere1");
    expect(uniqueName("pSphere#", taken(["pSphere1", "pSphere2"]))).toBe("pSphere3");
    expect(uniqueName("ball", taken(["ball"]))).toBe("ball1");
    expect(uniqueName("ball1", taken(["ball1"]))).toBe("ball2");
    expect(uniqueName("free", taken(["ball"]))).toBe("free");
  });

  it("derives shape names from transform names", () => {
    expect(shapeNameFor("pSphere3")).toBe("pSphereShape3");
    expect(shapeNameFor("ball")).toBe("ballShape");
  });

  it("rejects illegal names", () => {
    expect(() => assertValidName("1abc")).toThrow(/starts with a digit/);
    expect(() => assertValidName("a b")).toThrow();
    expect(() => assertValidName("good_name#")).not.toThrow();
  });

  it("matches wildcards and flattens name lists", () => {
    expect(wildcard("pS*e?")("pSphere1")).toBe(true);
    expect(wildcard("p.*")("pSphere1")).toBe(false);
    expect(flattenNames(["a", ["b", ["c"]]])).toEqual(["a", "b", "c"]);
    expect(() => flattenNames([1])).toThrow(/Expected object names/);
  });
});
