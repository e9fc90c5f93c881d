import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { assertBlender, describeWithBlender } from "@dcc/test-support";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BlenderWindow } from "../src/index.ts";
import { type BlenderSession, startBlenderSession } from "./support/blender-session.ts";
import { bwrapInstallCommand, runSandboxTests } from "./support/bwrap-available.ts";

// The sandbox is the wall behind the policy: these tests lift the policy's Python rule, so the
// strongest route there is (Python inside Blender) tries to reach outside the data folder.
let outside: string;
let secret: string;
beforeAll(() => {
  outside = mkdtempSync(join(tmpdir(), "dcc-blender-outside-"));
  secret = join(outside, "secret.txt");
  writeFileSync(secret, "host secret");
});
afterAll(() => {
  rmSync(outside, { recursive: true, force: true });
});

/** What Blender's Python saw: each read's text or error, each write's outcome. */
interface Probe {
  reads: Record<string, string>;
  writes: Record<string, string>;
}

/** Runs a Python file from the data folder that tries to read and write the given paths. */
async function probe(
  session: BlenderSession,
  reads: readonly string[],
  writes: readonly string[],
): Promise<Probe> {
  const report = join(session.dataDir, "probe.json");
  rmSync(report, { force: true });
  const script = `import json
def attempt(action):
    try:
        return action()
    except OSError as error:
        return type(error).__name__
reads = {path: attempt(lambda path=path: open(path).read()) for path in ${JSON.stringify(reads)}}
writes = {path: attempt(lambda path=path: str(open(path, "w").write("escaped"))) for path in ${JSON.stringify(writes)}}
json.dump({"reads": reads, "writes": writes}, open(${JSON.stringify(report)}, "w"))
`;
  writeFileSync(join(session.dataDir, "probe.py"), script);
  const result = await session.run(
    `return dispatch("script.python_file_run", { filepath: "probe.py" });`,
  );
  expect(result).toMatchObject({ success: true });
  return JSON.parse(readFileSync(report, "utf8")) as Probe;
}

const escapeName = `dcc-blender-escape-${process.pid}.txt`;

describe.runIf(runSandboxTests).each([["none"], ["xvfb"]] as [BlenderWindow][])(
  `Blender (window %s) in the OS sandbox (needs bwrap: ${bwrapInstallCommand})`,
  (window) => {
    describeWithBlender("sandbox: on", () => {
      let session: BlenderSession;
      beforeAll(async () => {
        assertBlender();
        session = await startBlenderSession({
          window,
          sandbox: "on",
          policy: { allow: ["python-scripts"] },
        });
      });
      afterAll(async () => {
        await session?.close();
      });

      it("works: a command round trip, and a save in the data folder", async () => {
        expect(session.adapter.sandboxed).toBe(true);
        const result = await session.run(`
          dispatch("mesh.primitive_cube_add", { location: [3, 0, 0] });
          dispatch("wm.save_as_mainfile", { filepath: "saved.blend" });
          return dispatch("data.list", { collection: "objects" }).length;`);
        expect(result, JSON.stringify(result)).toMatchObject({ success: true, output: 4 });
        expect(existsSync(join(session.dataDir, "saved.blend"))).toBe(true);
      });

      it("cannot read a host file outside the bound folders; reads and writes the data folder", async () => {
        writeFileSync(join(session.dataDir, "in.txt"), "data file");
        const seen = await probe(
          session,
          [secret, join(session.dataDir, "in.txt"), "/etc/shadow"],
          [join(session.dataDir, "out.txt")],
        );
        expect(seen.reads).toEqual({
          [secret]: "FileNotFoundError",
          [join(session.dataDir, "in.txt")]: "data file",
          "/etc/shadow": "FileNotFoundError",
        });
        expect(readFileSync(join(session.dataDir, "out.txt"), "utf8")).toBe("escaped");
      });

      it("a write outside lands nowhere on the host", async () => {
        const targets = [join(tmpdir(), escapeName), join(outside, escapeName), `/${escapeName}`];
        const seen = await probe(session, [], targets);
        expect(Object.keys(seen.writes)).toEqual(targets);
        for (const path of targets) expect(existsSync(path)).toBe(false);
      });
    });
  },
);

describeWithBlender("Blender with sandbox: off", () => {
  let session: BlenderSession;
  beforeAll(async () => {
    assertBlender();
    session = await startBlenderSession({ sandbox: "off", policy: { allow: ["python-scripts"] } });
  });
  afterAll(async () => {
    await session?.close();
  });

  it("runs as before: nothing hides the host's files (only the policy guards them)", async () => {
    expect(session.adapter.sandboxed).toBe(false);
    const seen = await probe(session, [secret], []);
    expect(seen.reads).toEqual({ [secret]: "host secret" });
  });
});
