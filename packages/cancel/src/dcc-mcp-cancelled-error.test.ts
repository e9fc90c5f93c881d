import { describe, expect, it, vi } from "vitest";
import { CancelledError } from "./cancelled-error.ts";
import { cancelledMessages, DccMcpCancelledError } from "./dcc-mcp-cancelled-error.ts";
import { DccMcpError } from "./dcc-mcp-error.ts";

describe("DccMcpCancelledError", () => {
  it("uses the upstream messages and the CANCELLED code", () => {
    const request = new DccMcpCancelledError({ reason: "user pressed stop", jobId: "job-1" });
    expect(request.message).toBe("Request cancelled by client");
    expect(request.code).toBe("CANCELLED");
    expect(request.source).toBe("request");
    expect(request.reason).toBe("user pressed stop");
    expect(request.jobId).toBe("job-1");
    expect(request.name).toBe("DccMcpCancelledError");
    const job = new DccMcpCancelledError({ source: "job" });
    expect(job.message).toBe(cancelledMessages.job);
    expect(job.message).toBe("Job cancelled by dispatcher");
    expect(job.reason).toBeUndefined();
    expect(job.jobId).toBeUndefined();
  });

  it("is a DccMcpError and a plain Error, so generic catches see it", () => {
    const error = new DccMcpCancelledError();
    expect(error).toBeInstanceOf(DccMcpError);
    expect(error).toBeInstanceOf(Error);
    expect(DccMcpError.is(error)).toBe(true);
    expect(DccMcpCancelledError.is(error)).toBe(true);
    expect(DccMcpCancelledError.is(new DccMcpError({ message: "x", code: "X" }))).toBe(false);
    expect(new DccMcpError({ message: "x", code: "X" })).not.toBeInstanceOf(DccMcpCancelledError);
  });

  it("keeps CancelledError as an alias of the same class", () => {
    expect(CancelledError).toBe(DccMcpCancelledError);
    expect(new CancelledError()).toBeInstanceOf(DccMcpCancelledError);
  });

  it("is recognised by a second copy of the package, by brand and by instanceof", async () => {
    vi.resetModules();
    const copy = (await import("./index.ts")) as typeof import("./index.ts");
    expect(copy.DccMcpCancelledError).not.toBe(DccMcpCancelledError);
    const foreign = new copy.DccMcpCancelledError({ source: "job", jobId: "j" });
    expect(foreign instanceof DccMcpCancelledError).toBe(true);
    expect(foreign instanceof DccMcpError).toBe(true);
    expect(DccMcpCancelledError.is(foreign)).toBe(true);
    const ours = new DccMcpCancelledError();
    expect(ours instanceof copy.DccMcpCancelledError).toBe(true);
    expect(ours instanceof copy.DccMcpError).toBe(true);
    // A foreign base error is not mistaken for a cancellation.
    const foreignBase = new copy.DccMcpError({ message: "x", code: "X" });
    expect(foreignBase instanceof DccMcpError).toBe(true);
    expect(foreignBase instanceof DccMcpCancelledError).toBe(false);
  });

  it("keeps ordinary instanceof for subclasses defined elsewhere", () => {
    class OtherError extends DccMcpError {
      constructor() {
        super({ message: "other", code: "OTHER" });
      }
    }
    class SpecialCancel extends DccMcpCancelledError {}
    expect(new OtherError()).toBeInstanceOf(OtherError);
    expect(new DccMcpCancelledError()).not.toBeInstanceOf(OtherError);
    expect(new DccMcpCancelledError()).not.toBeInstanceOf(SpecialCancel);
    expect(new SpecialCancel()).toBeInstanceOf(SpecialCancel);
    expect(new SpecialCancel()).toBeInstanceOf(DccMcpCancelledError);
  });
});
