import { chmod, mkdir, mkdtemp, realpath, rm, stat, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { pathToFileURL } from "node:url";
import { DccLaunchError } from "@dcc/link";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { prepareLinkedLaunch } from "./prepare-linked-launch.ts";

let folder = "";

beforeEach(async () => {
  folder = await realpath(await mkdtemp(join(tmpdir(), "kit-launch-")));
  await mkdir(join(folder, "bin"));
  await writeFile(join(folder, "bin", "toycmd"), "#!/bin/sh\n");
  await chmod(join(folder, "bin", "toycmd"), 0o755);
});

afterEach(async () => {
  await rm(folder, { recursive: true, force: true });
});

async function refusal(promise: Promise<unknown>): Promise<DccLaunchError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(DccLaunchError);
  return error as DccLaunchError;
}

describe("prepareLinkedLaunch", () => {
  it("finds the first executable on PATH, and names every place it looked when none is there", async () => {
    const environment = { PATH: [join(folder, "none"), join(folder, "bin")].join(delimiter) };
    const launch = await prepareLinkedLaunch({
      displayName: "Toy",
      executable: ["ToyCmd", "toycmd"],
      environment,
    });
    expect(launch.command).toBe(join(folder, "bin", "toycmd"));
    const missing = await refusal(
      prepareLinkedLaunch({
        displayName: "Toy",
        executable: "nothing",
        executableVariable: "TOY_BIN",
        environment,
      }),
    );
    expect(missing.code).toBe("LAUNCH_FAILED");
    expect(missing.message).toBe(
      `Toy was not found: looked for ${join(folder, "none", "nothing")}, ${join(folder, "bin", "nothing")}; set TOY_BIN to its path`,
    );
  });

  it("lets the executable variable win, and says when what it names is missing", async () => {
    const environment = { PATH: join(folder, "bin"), TOY_BIN: join(folder, "bin", "toycmd") };
    const options = { displayName: "Toy", executable: "other", executableVariable: "TOY_BIN" };
    expect((await prepareLinkedLaunch({ ...options, environment })).command).toBe(
      environment.TOY_BIN,
    );
    const gone = await refusal(
      prepareLinkedLaunch({ ...options, environment: { TOY_BIN: join(folder, "gone") } }),
    );
    expect(gone.message).toBe(
      `Toy was not found (from TOY_BIN): looked for ${join(folder, "gone")}`,
    );
  });

  it("creates the data folder, names it by its real path, and shows the DCC its Python and scripts", async () => {
    await symlink(folder, join(folder, "link"));
    const script = pathToFileURL(join(folder, "scripts", "startup.py"));
    const launch = await prepareLinkedLaunch({
      displayName: "Toy",
      executable: join(folder, "bin", "toycmd"),
      args: ["-S", script],
      pythonPath: [join(folder, "python"), pathToFileURL(join(folder, "more"))],
      dataDir: join(folder, "link", "data"),
      env: { PYTHONPATH: "/theirs", OTHER: "1" },
      sandboxPaths: { readOnly: ["/ro"], readWrite: ["/rw"] },
    });
    expect((await stat(join(folder, "data"))).isDirectory()).toBe(true);
    expect(launch).toEqual({
      command: join(folder, "bin", "toycmd"),
      args: ["-S", join(folder, "scripts", "startup.py")],
      env: {
        PYTHONPATH: [join(folder, "python"), join(folder, "more"), "/theirs"].join(delimiter),
        OTHER: "1",
        DCC_DATA_DIR: join(folder, "data"),
      },
      sandboxPaths: {
        readOnly: [join(folder, "python"), join(folder, "more"), join(folder, "scripts"), "/ro"],
        readWrite: ["/rw", join(folder, "data")],
      },
    });
  });

  it("refuses a data folder it cannot create, naming it", async () => {
    const error = await refusal(
      prepareLinkedLaunch({
        displayName: "Toy",
        executable: join(folder, "bin", "toycmd"),
        dataDir: join(folder, "bin", "toycmd", "data"),
      }),
    );
    expect(error.message).toContain(
      `Toy's data folder ${join(folder, "bin", "toycmd", "data")} cannot be used`,
    );
  });
});
