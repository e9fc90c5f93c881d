import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join, relative } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { searchExecutable } from "./search-executable.ts";

const root = mkdtempSync(join(tmpdir(), "dcc-search-executable-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function file(path: string, mode: number): string {
  mkdirSync(join(path, ".."), { recursive: true });
  writeFileSync(path, "#!/bin/sh\n");
  chmodSync(path, mode);
  return path;
}

describe("searchExecutable", () => {
  it("takes the first executable file on PATH, passing folders and non-executables", () => {
    mkdirSync(join(root, "a", "tool"), { recursive: true });
    file(join(root, "b", "tool"), 0o644);
    const wanted = file(join(root, "c", "tool"), 0o755);
    const path = ["", join(root, "a"), join(root, "b"), join(root, "c")].join(delimiter);
    expect(searchExecutable("tool", { path })).toEqual({
      found: wanted,
      searched: [join(root, "a", "tool"), join(root, "b", "tool"), wanted],
    });
  });

  it("takes a path as given, made absolute, without searching PATH", () => {
    const wanted = file(join(root, "d", "tool"), 0o755);
    const path = join(root, "c");
    expect(searchExecutable(relative(process.cwd(), wanted), { path }).found).toBe(wanted);
    const missing = join(root, "d", "missing");
    expect(searchExecutable(missing, { path })).toEqual({ found: undefined, searched: [missing] });
  });

  it("says so when PATH has no folder to search", () => {
    expect(searchExecutable("tool", { path: "" })).toEqual({
      found: undefined,
      searched: ["tool on an empty PATH"],
    });
  });
});
