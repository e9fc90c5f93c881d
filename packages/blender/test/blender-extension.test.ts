import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { assertBlender, describeWithBlender } from "@dcc/test-support";
import { afterAll, beforeAll, expect, it } from "vitest";
import { buildExtension } from "../scripts/build-extension.mjs";

const installer = fileURLToPath(new URL("./fixtures/install-extension.py", import.meta.url));

// The add-on's zip, installed as a user installs it: an extension on Blender 4.2+, a legacy
// add-on on 3.x. Enabled, it serves the link.
describeWithBlender("the DCC Link add-on's zip", () => {
  let folder: string;
  beforeAll(() => {
    assertBlender();
    folder = mkdtempSync(join(tmpdir(), "dcc-blender-extension-"));
  });
  afterAll(() => {
    if (folder !== undefined) rmSync(folder, { recursive: true, force: true });
  });

  it("installs and enables through this Blender's own installer, and serves the link", () => {
    const zip = buildExtension(join(folder, "dcc_blender_link.zip"));
    const user = join(folder, "user");
    for (const part of ["config", "scripts", "datafiles", "extensions", "temp"]) {
      mkdirSync(join(user, part), { recursive: true });
    }
    const linkDir = join(folder, "link");
    const run = spawnSync(
      process.env["BLENDER_BIN"] ?? "blender",
      ["-b", "--factory-startup", "--python-exit-code", "1", "--python", installer, "--", zip],
      {
        encoding: "utf8",
        timeout: 240_000,
        env: {
          ...process.env,
          TMPDIR: join(user, "temp"),
          BLENDER_USER_CONFIG: join(user, "config"),
          BLENDER_USER_SCRIPTS: join(user, "scripts"),
          BLENDER_USER_DATAFILES: join(user, "datafiles"),
          BLENDER_USER_EXTENSIONS: join(user, "extensions"),
          DCC_BLENDER_LINK_DIR: linkDir,
          DCC_BLENDER_DATA_DIR: join(folder, "data"),
          DCC_LINK_PYTHON_PATH: "",
        },
      },
    );
    const output = `${run.stdout}\n${run.stderr}`;
    expect(run.status, output).toBe(0);
    expect(output).toMatch(/INSTALLED \['FINISHED'\] \S*dcc_blender_link enabled=True/);
    // Its register() made the link's folder and connection file (removed again at Blender's exit).
    expect(output).toContain(`DCC Link: connection details in ${join(linkDir, "connection.json")}`);
  });
});
