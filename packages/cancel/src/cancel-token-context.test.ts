import { setTimeout as delay } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { CancelToken } from "./cancel-token.ts";
import {
  checkCancelled,
  currentCancelToken,
  resetCancelToken,
  setCancelToken,
  withCancelToken,
} from "./cancel-token-context.ts";
import { ContextResetError } from "./context-reset.ts";
import { setCurrentJob } from "./current-job-context.ts";
import { DccMcpCancelledError } from "./dcc-mcp-cancelled-error.ts";
import { runIsolated } from "./internal/ambient-store.ts";

function cancelled(reason?: string, jobId?: string): CancelToken {
  const token = new CancelToken({ jobId });
  token.cancel(reason);
  return token;
}

describe("checkCancelled", () => {
  it("does nothing outside a request", () => {
    runIsolated(() => {
      expect(currentCancelToken()).toBeUndefined();
      expect(() => checkCancelled()).not.toThrow();
    });
  });

  it("does nothing while the installed token is live, and throws once it is cancelled", () => {
    const token = new CancelToken({ jobId: "job-7" });
    withCancelToken(token, () => {
      expect(() => checkCancelled()).not.toThrow();
      token.cancel("stop please");
      let caught: unknown;
      try {
        checkCancelled();
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(DccMcpCancelledError);
      const error = caught as DccMcpCancelledError;
      expect(error.message).toBe("Request cancelled by client");
      expect(error.reason).toBe("stop please");
      expect(error.jobId).toBe("job-7");
      expect(error.source).toBe("request");
    });
  });

  it("accepts a read-only probe that is not a CancelToken", () => {
    const probe = { cancelled: true, jobId: "p" };
    withCancelToken(probe, () => {
      expect(currentCancelToken()).toBe(probe);
      expect(() => checkCancelled()).toThrow(DccMcpCancelledError);
    });
  });
});

describe("withCancelToken", () => {
  it("scopes the token to the callback and nests", () => {
    const outer = new CancelToken();
    const inner = new CancelToken();
    runIsolated(() => {
      withCancelToken(outer, () => {
        expect(currentCancelToken()).toBe(outer);
        withCancelToken(inner, () => expect(currentCancelToken()).toBe(inner));
        expect(currentCancelToken()).toBe(outer);
      });
      expect(currentCancelToken()).toBeUndefined();
    });
  });

  it("lets an explicit null hide an inherited cancelled token", () => {
    withCancelToken(cancelled(), () => {
      expect(() => checkCancelled()).toThrow(DccMcpCancelledError);
      withCancelToken(null, () => {
        expect(currentCancelToken()).toBeUndefined();
        expect(() => checkCancelled()).not.toThrow();
      });
      const reset = setCancelToken(null);
      expect(() => checkCancelled()).not.toThrow();
      resetCancelToken(reset);
      expect(() => checkCancelled()).toThrow(DccMcpCancelledError);
    });
  });
});

describe("setCancelToken / resetCancelToken", () => {
  it("restores previous tokens when reset in reverse order", () => {
    const [a, b, c] = [new CancelToken(), new CancelToken(), new CancelToken()];
    runIsolated(() => {
      const ha = setCancelToken(a);
      const hb = setCancelToken(b);
      const hc = setCancelToken(c);
      expect(currentCancelToken()).toBe(c);
      expect(hc.variable).toBe("cancelToken");
      resetCancelToken(hc);
      expect(hc.used).toBe(true);
      expect(currentCancelToken()).toBe(b);
      resetCancelToken(hb);
      expect(currentCancelToken()).toBe(a);
      resetCancelToken(ha);
      expect(currentCancelToken()).toBeUndefined();
    });
  });

  it("restores, out of order, the value each set found (Python contextvars semantics)", () => {
    const [a, b] = [new CancelToken(), new CancelToken()];
    runIsolated(() => {
      const ha = setCancelToken(a);
      const hb = setCancelToken(b);
      resetCancelToken(ha);
      expect(currentCancelToken()).toBeUndefined();
      resetCancelToken(hb);
      expect(currentCancelToken()).toBe(a);
    });
  });

  it("persists across awaits of the same async function", async () => {
    const token = new CancelToken();
    await runIsolated(async () => {
      const handle = setCancelToken(token);
      try {
        await delay(1);
        expect(currentCancelToken()).toBe(token);
      } finally {
        resetCancelToken(handle);
      }
      expect(currentCancelToken()).toBeUndefined();
    });
  });

  it("rejects a handle used twice, a job handle, a foreign object and another scope", () => {
    runIsolated(() => {
      const handle = setCancelToken(new CancelToken());
      resetCancelToken(handle);
      expect(() => resetCancelToken(handle)).toThrow(ContextResetError);
      expect(() => resetCancelToken(handle)).toThrow("already used");
      const jobHandle = setCurrentJob({ cancelled: false });
      expect(() => resetCancelToken(jobHandle)).toThrow("belongs to currentJob");
      expect(() => resetCancelToken({ variable: "cancelToken", used: false })).toThrow(
        ContextResetError,
      );
      const outer = setCancelToken(new CancelToken());
      withCancelToken(null, () => {
        expect(() => resetCancelToken(outer)).toThrow("different scope");
      });
      expect(outer.used).toBe(false);
      resetCancelToken(outer);
    });
  });

  it("does not leak a set made inside a scoped callback", () => {
    const token = new CancelToken();
    runIsolated(() => {
      withCancelToken(null, () => {
        setCancelToken(token);
        expect(currentCancelToken()).toBe(token);
      });
      expect(currentCancelToken()).toBeUndefined();
    });
  });

  it("has a stable error code for misuse", () => {
    const error = new ContextResetError({ message: "m" });
    expect(error.code).toBe("INVALID_CONTEXT_RESET");
  });
});
