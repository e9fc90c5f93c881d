import { describe, expect, it } from "vitest";
import { CancelToken } from "./cancel-token.ts";
import { withCancelToken } from "./cancel-token-context.ts";
import { withCurrentJob } from "./current-job-context.ts";
import { currentJobId, withHostJobId } from "./current-job-id.ts";
import { runIsolated } from "./internal/ambient-store.ts";

describe("currentJobId", () => {
  it("is undefined outside any context", () => {
    runIsolated(() => expect(currentJobId()).toBeUndefined());
  });

  it("prefers the host bridge id, then the token's, then the current job's", () => {
    runIsolated(() => {
      withCurrentJob({ cancelled: false, jobId: "from-job" }, () => {
        expect(currentJobId()).toBe("from-job");
        withCancelToken(new CancelToken({ jobId: "from-token" }), () => {
          expect(currentJobId()).toBe("from-token");
          withHostJobId("from-host", () => expect(currentJobId()).toBe("from-host"));
          withHostJobId(undefined, () => expect(currentJobId()).toBe("from-token"));
        });
        withCancelToken(new CancelToken(), () => expect(currentJobId()).toBe("from-job"));
        withCancelToken(null, () => expect(currentJobId()).toBe("from-job"));
      });
    });
  });

  it("treats empty ids at every layer as none", () => {
    runIsolated(() =>
      withCurrentJob({ cancelled: false, jobId: "" }, () =>
        withCancelToken({ cancelled: false, jobId: "" }, () =>
          withHostJobId("", () => expect(currentJobId()).toBeUndefined()),
        ),
      ),
    );
  });

  it("never takes a job id from client-supplied _meta", () => {
    // What a bridge does with a tools/call: the token is built from server state only.
    const toolArguments = { code: "return 1", _meta: { dcc: { jobId: "spoofed-by-client" } } };
    const handler = (_args: typeof toolArguments) => currentJobId();
    const synchronous = runIsolated(() =>
      withCancelToken(new CancelToken(), () => handler(toolArguments)),
    );
    expect(synchronous).toBeUndefined();
    const asynchronous = runIsolated(() =>
      withHostJobId("server-uuid", () =>
        withCancelToken(new CancelToken(), () => handler(toolArguments)),
      ),
    );
    expect(asynchronous).toBe("server-uuid");
  });
});
