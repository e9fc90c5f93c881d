import { spawnSync } from "node:child_process";
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  buildDocument,
  buildOperatorRecord,
  catalogOutputPath,
  generate,
  pollHint,
  type RawOperator,
  serialise,
} from "../scripts/generate-catalog.mjs";
import { BlenderDumpError, dumpOperators } from "../scripts/run-blender-dump.mjs";

const installCommand = "apt-get install -y blender python3-numpy xvfb";
const blender = process.env["BLENDER"] ?? process.env["BLENDER_BIN"] ?? "blender";
const hasBlender = spawnSync(blender, ["--version"], { timeout: 60_000 }).status === 0;
const requireBlender = process.env["DCC_REQUIRE_BLENDER"] === "1";

const scratch: string[] = [];
afterEach(() => {
  for (const directory of scratch.splice(0)) rmSync(directory, { recursive: true, force: true });
});
function scratchDirectory(): string {
  const directory = mkdtempSync(join(tmpdir(), "dcc-blender-test-"));
  scratch.push(directory);
  return directory;
}

const modes = ["OBJECT", "EDIT_MESH", "SCULPT"];
const raw = (name: string, poll: string[]): RawOperator => ({
  name,
  label: "Label",
  description: "",
  options: ["UNDO", "REGISTER"],
  params: [{ description: "Size", type: "float", name: "size", default: 1, min: 0 }],
  poll,
});

describe("building the catalog from Blender's dump", () => {
  it("reads mode and editor needs from where poll() passed", () => {
    expect(pollHint(["OBJECT/-", "EDIT_MESH/-", "SCULPT/VIEW_3D"], modes)).toEqual({});
    expect(pollHint(["EDIT_MESH/-", "EDIT_MESH/VIEW_3D"], modes)).toEqual({ modes: ["EDIT_MESH"] });
    expect(pollHint(["OBJECT/VIEW_3D", "EDIT_MESH/VIEW_3D", "SCULPT/VIEW_3D"], modes)).toEqual({
      areas: ["VIEW_3D"],
    });
    expect(pollHint([], modes)).toEqual({ modes: [] });
  });

  it("writes records with fixed key order, sorted options and no empty fields", () => {
    const record = buildOperatorRecord(raw("mesh.thing", ["EDIT_MESH/-"]), modes);
    expect(JSON.stringify(record)).toBe(
      '{"name":"mesh.thing","label":"Label","options":["REGISTER","UNDO"],' +
        '"params":[{"name":"size","type":"float","default":1,"min":0,"description":"Size"}],' +
        '"modes":["EDIT_MESH"]}',
    );
  });

  it("sorts operators by name and writes one per line", () => {
    const text = serialise(
      buildDocument(
        {
          blender: "9.9",
          modes,
          areas: ["VIEW_3D"],
          skipped: [],
          operators: [raw("b.two", []), raw("a.one", ["OBJECT/-"])],
        },
        ["VIEW_3D/b.two", "*/a.one"],
      ),
    );
    const lines = text.split("\n");
    expect(lines[4]).toBe('  "skippedPolls": ["*/a.one","VIEW_3D/b.two"],');
    expect(lines[6]).toMatch(/^ {4}\{"name":"a\.one",.*\},$/);
    expect(lines[7]).toMatch(/^ {4}\{"name":"b\.two",.*"modes":\[\]\}$/);
    expect(JSON.parse(text).operators).toHaveLength(2);
  });
});

describe("running Blender", () => {
  it("names the executable when it cannot be started", async () => {
    const missing = join(scratchDirectory(), "no-blender");
    await expect(dumpOperators({ blender: missing })).rejects.toThrow(
      new BlenderDumpError(`cannot start ${missing}: spawn ${missing} ENOENT`),
    );
  });

  it("stops a Blender that does not finish in time", async () => {
    const stuck = join(scratchDirectory(), "stuck-blender");
    writeFileSync(stuck, "#!/bin/sh\nexec sleep 30\n");
    chmodSync(stuck, 0o755);
    await expect(dumpOperators({ blender: stuck, timeoutMs: 300 })).rejects.toThrow(
      /did not finish within 300 ms/,
    );
  });

  it("skips a poll that crashes Blender and runs the dump again", async () => {
    // Stands in for Blender: crashes on its first run after logging the poll it was in, then,
    // given that poll to skip, writes an empty dump.
    const crashing = join(scratchDirectory(), "crashing-blender");
    writeFileSync(
      crashing,
      `#!/bin/sh
while [ "$1" != "--" ]; do shift; done
shift; out=$1; progress=$2; shift 2
case " $* " in
  *" VIEW_3D/ui.crashy "*) printf '{"blender":"x","modes":[],"areas":[],"skipped":[],"operators":[]}' > "$out" ;;
  *) echo "OBJECT/VIEW_3D/ui.crashy" >> "$progress"; kill -SEGV $$ ;;
esac
`,
    );
    chmodSync(crashing, 0o755);
    const lines: string[] = [];
    const result = await dumpOperators({ blender: crashing, log: (line) => lines.push(line) });
    expect(result.runs).toBe(2);
    expect(result.skipped).toContain("VIEW_3D/ui.crashy");
    expect(result.skipped).toContain("*/ui.view_drop");
    expect(lines).toEqual([
      "poll of OBJECT/VIEW_3D/ui.crashy crashed Blender; skipping VIEW_3D/ui.crashy",
    ]);
  });

  it("reports a failing run that is not a crash, with Blender's output", async () => {
    const failing = join(scratchDirectory(), "failing-blender");
    writeFileSync(failing, "#!/bin/sh\necho 'Error: script failed' >&2\nexit 1\n");
    chmodSync(failing, 0o755);
    await expect(dumpOperators({ blender: failing })).rejects.toThrow(
      /Blender exited with 1:\nError: script failed/,
    );
  });
});

describe("the committed catalog", () => {
  const title = hasBlender
    ? `matches what the installed Blender generates (${blender})`
    : requireBlender
      ? `matches what the installed Blender generates (DCC_REQUIRE_BLENDER=1, but no Blender: ${installCommand})`
      : `matches what the installed Blender generates (skipped: no Blender; install with ${installCommand})`;
  it.skipIf(!hasBlender && !requireBlender)(
    title,
    async () => {
      if (!hasBlender) {
        throw new Error(`DCC_REQUIRE_BLENDER=1 but ${blender} cannot run: ${installCommand}`);
      }
      const out = join(scratchDirectory(), "operators.generated.json");
      // The default 480 s bound: an overloaded 2-core machine has needed over 240 s for what takes
      // 10 s when it is quiet.
      writeFileSync(out, await generate({ blender }));
      const fresh = readFileSync(out, "utf8").split("\n");
      const version = (JSON.parse(fresh.join("\n")) as { blender: string }).blender;
      const committed = readFileSync(catalogOutputPath(version), "utf8").split("\n");
      const first = fresh.findIndex((line, index) => line !== committed[index]);
      // Name the first line that differs rather than printing a megabyte of JSON.
      expect(
        first === -1 && fresh.length === committed.length
          ? "same"
          : `line ${first + 1}: ${fresh[first]?.slice(0, 300)}`,
        "run pnpm --filter @dcc/blender generate:catalog",
      ).toBe("same");
    },
    600_000,
  );
  if (!hasBlender && !requireBlender) {
    console.warn(
      `Blender is not installed: the catalog comparison is skipped (${installCommand}).`,
    );
  }
});
