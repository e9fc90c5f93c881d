import { describe, expect, it } from "vitest";
import { CancelToken } from "./cancel-token.ts";
import { checkCancelled, withCancelToken } from "./cancel-token-context.ts";
import { checkDccCancelled } from "./check-dcc-cancelled.ts";
import { withCurrentJob } from "./current-job-context.ts";
import { DccMcpCancelledError } from "./dcc-mcp-cancelled-error.ts";
import { runIsolated } from "./internal/ambient-store.ts";
import { Job } from "./job.ts";

function thrown(fn: () => void): DccMcpCancelledError | undefined {
  try {
    fn();
  } catch (error) {
    if (error instanceof DccMcpCancelledError) return error;
    throw error;
  }
  return undefined;
}

describe("checkDccCancelled", () => {
  it("does nothing outside any context or when neither layer is cancelled", () => {
    runIsolated(() => expect(thrown(checkDccCancelled)).toBeUndefined());
    withCancelToken(new CancelToken(), () =>
      withCurrentJob({ cancelled: false }, () => expect(thrown(checkDccCancelled)).toBeUndefined()),
    );
  });

  it("honours a cancelled job when no request token is installed", () => {
    runIsolated(() => {
      const job = new Job({ jobId: "render-1" });
      job.start();
      job.requestCancel("dispatcher stopped it");
      withCurrentJob(job, () => {
        expect(thrown(checkCancelled)).toBeUndefined();
        const error = thrown(checkDccCancelled);
        expect(error?.message).toBe("Job cancelled by dispatcher");
        expect(error?.source).toBe("job");
        expect(error?.reason).toBe("dispatcher stopped it");
        expect(error?.jobId).toBe("render-1");
      });
    });
  });

  it("accepts any handle whose cancelled is true", () => {
    withCurrentJob({ cancelled: true }, () => {
      expect(thrown(checkDccCancelled)?.message).toBe("Job cancelled by dispatcher");
    });
  });

  it("gives the request message when both layers are cancelled", () => {
    const token = new CancelToken();
    token.cancel("client");
    withCurrentJob({ cancelled: true, jobId: "j" }, () =>
      withCancelToken(token, () => {
        const error = thrown(checkDccCancelled);
        expect(error?.message).toBe("Request cancelled by client");
        expect(error?.source).toBe("request");
        expect(error?.reason).toBe("client");
        expect(error?.jobId).toBe("j");
      }),
    );
  });

  it("gives the request message when only the request is cancelled", () => {
    const token = new CancelToken();
    token.cancel();
    withCurrentJob({ cancelled: false }, () =>
      withCancelToken(token, () => {
        expect(thrown(checkDccCancelled)?.message).toBe("Request cancelled by client");
      }),
    );
  });
});
