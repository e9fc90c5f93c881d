import { describe, expect, it } from "vitest";
import { setCancelToken } from "./cancel-token-context.ts";
import {
  currentJob,
  resetCurrentJob,
  setCurrentJob,
  withCurrentJob,
} from "./current-job-context.ts";
import { runIsolated } from "./internal/ambient-store.ts";
import type { JobHandle } from "./job-handle.ts";

const job = (jobId: string): JobHandle => ({ cancelled: false, jobId });

describe("current job", () => {
  it("is undefined by default and scoped by withCurrentJob", () => {
    const a = job("a");
    runIsolated(() => {
      expect(currentJob()).toBeUndefined();
      withCurrentJob(a, () => {
        expect(currentJob()).toBe(a);
        withCurrentJob(null, () => expect(currentJob()).toBeUndefined());
      });
      expect(currentJob()).toBeUndefined();
    });
  });

  it("nests set/reset and leaves the token variable alone", () => {
    const [a, b] = [job("a"), job("b")];
    runIsolated(() => {
      const ha = setCurrentJob(a);
      const hb = setCurrentJob(b);
      expect(hb.variable).toBe("currentJob");
      expect(currentJob()).toBe(b);
      resetCurrentJob(hb);
      expect(currentJob()).toBe(a);
      resetCurrentJob(ha);
      expect(currentJob()).toBeUndefined();
    });
  });

  it("rejects a cancel-token handle", () => {
    runIsolated(() => {
      const tokenHandle = setCancelToken(null);
      expect(() => resetCurrentJob(tokenHandle)).toThrow("belongs to cancelToken");
    });
  });
});
