import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { findMayapy } from "./find-mayapy.ts";
import { MayaNotFoundError } from "./maya-not-found-error.ts";

const root = mkdtempSync(join(tmpdir(), "dcc-find-mayapy-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function executable(folder: string): string {
  mkdirSync(folder, { recursive: true });
  const path = join(folder, "mayapy");
  writeFileSync(path, "#!/bin/sh\n");
  chmodSync(path, 0o755);
  return path;
}

describe("findMayapy", () => {
  const location = join(root, "maya2025");
  const fromLocation = executable(join(location, "bin"));
  const fromPath = executable(join(root, "path-bin"));
  const explicit = executable(join(root, "explicit"));

  it("takes the option, then MAYAPY_BIN, then MAYA_LOCATION, then PATH", () => {
    const env = { MAYAPY_BIN: explicit, MAYA_LOCATION: location, PATH: join(root, "path-bin") };
    expect(findMayapy({ mayapy: fromPath, env })).toBe(fromPath);
    expect(findMayapy({ env })).toBe(explicit);
    expect(findMayapy({ env: { MAYA_LOCATION: location, PATH: env.PATH } })).toBe(fromLocation);
    expect(findMayapy({ env: { PATH: env.PATH } })).toBe(fromPath);
  });

  it("says where it looked and how to install when there is none", () => {
    const error = (() => {
      try {
        findMayapy({ env: { MAYA_LOCATION: join(root, "none"), PATH: join(root, "empty") } });
      } catch (caught) {
        return caught;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(MayaNotFoundError);
    const notFound = error as MayaNotFoundError;
    expect(notFound.code).toBe("MAYA_NOT_FOUND");
    expect(notFound.searched).toEqual([
      join(root, "none", "bin", "mayapy"),
      join(root, "empty", "mayapy"),
    ]);
    expect(notFound.message).toContain("MAYAPY_BIN");
    expect(notFound.message).toContain("Install Autodesk Maya");
  });
});
