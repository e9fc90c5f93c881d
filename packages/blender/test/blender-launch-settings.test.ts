import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DccLaunchError } from "@dcc/link";
import { assertBlender, describeWithBlender } from "@dcc/test-support";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { blenderLaunch } from "../src/adapter/blender-launch.ts";
import { createBlenderAdapter } from "../src/index.ts";
import { runSandboxTests } from "./support/bwrap-available.ts";

const startContext = () => ({
  signal: AbortSignal.timeout(180_000),
  reportHost: () => undefined,
});

let folder: string;
const saved = process.env["DCC_SANDBOX"];
beforeAll(() => {
  folder = mkdtempSync(join(tmpdir(), "dcc-blender-launch-"));
});
afterEach(() => {
  if (saved === undefined) delete process.env["DCC_SANDBOX"];
  else process.env["DCC_SANDBOX"] = saved;
});
afterAll(() => {
  rmSync(folder, { recursive: true, force: true });
});

describe("the sandbox of a Blender launch", () => {
  it("is left to @dcc/link when not given (so DCC_SANDBOX applies), passed on when given", () => {
    const dataDir = folder;
    for (const window of ["none", "xvfb"] as const) {
      expect(blenderLaunch({ dataDir, window })).not.toHaveProperty("sandbox");
      expect(blenderLaunch({ dataDir, window, sandbox: "off" })).toMatchObject({ sandbox: "off" });
    }
  });

  it("a bad DCC_SANDBOX fails the start, naming the variable", async () => {
    process.env["DCC_SANDBOX"] = "maybe";
    const adapter = createBlenderAdapter({ dataDir: join(folder, "bad-variable") });
    try {
      await expect(adapter.start?.(startContext())).rejects.toThrow(
        'DCC_SANDBOX must be "auto", "on" or "off", not "maybe"',
      );
    } finally {
      await adapter.close?.();
    }
  });
});

describe("a Blender that fails to start", () => {
  it("is reported with the last lines it printed, not only its exit code", async () => {
    // A broken install, as a real process: it prints the loader's complaint and exits 127.
    const broken = join(folder, "blender-broken");
    writeFileSync(
      broken,
      `#!/bin/sh\necho "Blender 3.4.1 starting" \necho "blender: error while loading shared libraries: libOpenImageDenoise.so.1: cannot open shared object file" >&2\nexit 127\n`,
    );
    chmodSync(broken, 0o755);
    const adapter = createBlenderAdapter({
      dataDir: join(folder, "broken"),
      blenderBin: broken,
      sandbox: "off",
    });
    try {
      const error = await adapter.start?.(startContext()).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(DccLaunchError);
      expect((error as Error).message).toContain("ended before it was ready (exit code 127)");
      expect((error as Error).message).toContain(
        "libOpenImageDenoise.so.1: cannot open shared object file",
      );
    } finally {
      await adapter.close?.();
    }
  });
});

describeWithBlender("DCC_SANDBOX reaches a launched Blender", () => {
  it.runIf(runSandboxTests)(
    "off: Blender runs unsandboxed where the sandbox works (auto would sandbox it)",
    async () => {
      assertBlender();
      process.env["DCC_SANDBOX"] = "off";
      const adapter = createBlenderAdapter({ dataDir: join(folder, "variable-off") });
      try {
        await adapter.start?.(startContext());
        expect(adapter.sandboxed).toBe(false);
        expect(await adapter.call("ping")).toMatchObject({ blender: expect.any(String) });
      } finally {
        await adapter.close?.();
      }
    },
  );
});
