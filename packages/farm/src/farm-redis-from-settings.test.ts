import { describe, expect, it } from "vitest";
import { FarmError } from "./farm-error.ts";
import { farmRedisFromSettings } from "./farm-redis-from-settings.ts";

function refusal(...args: Parameters<typeof farmRedisFromSettings>): string {
  try {
    farmRedisFromSettings(...args);
  } catch (error) {
    expect(error).toBeInstanceOf(FarmError);
    expect((error as FarmError).code).toBe("INVALID_CONFIG");
    return (error as Error).message;
  }
  throw new Error("not refused");
}

describe("farmRedisFromSettings", () => {
  it("takes the URL from settings or DCC_FARM_REDIS_URL, the password only from DCC_FARM_REDIS_PASSWORD", () => {
    expect(farmRedisFromSettings({ url: "redis://farm:6379" }, {})).toEqual({
      url: "redis://farm:6379",
    });
    expect(
      farmRedisFromSettings(
        { tls: true },
        {
          DCC_FARM_REDIS_URL: "redis://ops@queue:6380/2",
          DCC_FARM_REDIS_PASSWORD: "pw",
          DCC_FARM_PREFIX: "studio",
        },
      ),
    ).toEqual({ url: "redis://ops@queue:6380/2", password: "pw", tls: true, prefix: "studio" });
    expect(farmRedisFromSettings({}, { DCC_FARM_PREFIX: "x" })).toBeUndefined();
  });

  it("refuses a password in the URL without repeating it, and other bad settings by name", () => {
    for (const url of ["redis://:hunter2-secret@farm:6379", "rediss://ops:hunter2-secret@farm"]) {
      const message = refusal({ url }, {});
      expect(message).toContain("holds a password");
      expect(message).toContain("DCC_FARM_REDIS_PASSWORD");
      expect(message).not.toContain("hunter2-secret");
    }
    expect(refusal({}, { DCC_FARM_REDIS_URL: "redis://:hunter2-secret@farm" })).not.toContain(
      "hunter2-secret",
    );
    expect(refusal({ url: "http://farm" }, {})).toMatch(/redis:\/\/ or rediss:\/\/ URL/);
    expect(refusal({ url: "not a url hunter2-secret" }, {})).not.toContain("hunter2-secret");
    expect(refusal({ url: "redis://farm" }, { DCC_FARM_REDIS_PASSWORD: "" })).toMatch(/empty/);
    expect(refusal({ url: "redis://farm", prefix: "a b" }, {})).toMatch(/key prefix must be/);
  });
});
