#!/usr/bin/env node
// Builds the DCC Link add-on's zip: one folder, dcc_blender_link/, holding the add-on, its
// blender_manifest.toml, and the dcc_blender and dcc_link packages it imports. Installs through
// Blender 4.2+'s extensions (Get Extensions > Install from Disk, or
// `blender --command extension install-file -r user_default <zip>`) and as a legacy add-on on
// Blender 3.x (Preferences > Add-ons > Install). Needs python3 (its zipfile module), not Blender.
//
//   node scripts/build-extension.mjs [--out FILE]     default dist/dcc_blender_link-<version>.zip

import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const packageRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const addon = resolve(packageRoot, "python/addons/dcc_blender_link");
const blenderPython = resolve(packageRoot, "python/dcc_blender");
const linkPython = resolve(packageRoot, "node_modules/@dcc/link/python/dcc_link");

/** The add-on's version, from its manifest. */
export function extensionVersion() {
  const manifest = readFileSync(resolve(addon, "blender_manifest.toml"), "utf8");
  const match = /^version = "([^"]+)"$/m.exec(manifest);
  if (match === null) throw new Error("blender_manifest.toml has no version");
  return match[1];
}

const program = `
import os, sys, zipfile
out, *sources = sys.argv[1:]
with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
    for source, inside in zip(sources[::2], sources[1::2]):
        for folder, folders, files in os.walk(source):
            folders[:] = sorted(f for f in folders if f not in ("__pycache__", "tests"))
            for name in sorted(files):
                if name.endswith(".pyc"):
                    continue
                path = os.path.join(folder, name)
                archive.write(path, os.path.join(inside, os.path.relpath(path, source)))
`;

/** Writes the zip to `out` (default `dist/dcc_blender_link-<version>.zip`); returns its path. */
export function buildExtension(out) {
  const file = out ?? resolve(packageRoot, `dist/dcc_blender_link-${extensionVersion()}.zip`);
  mkdirSync(dirname(file), { recursive: true });
  execFileSync(
    "python3",
    [
      "-c",
      program,
      file,
      addon,
      "dcc_blender_link",
      blenderPython,
      "dcc_blender_link/dcc_blender",
      linkPython,
      "dcc_blender_link/dcc_link",
    ],
    { stdio: "inherit", timeout: 60_000 },
  );
  return file;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const outIndex = process.argv.indexOf("--out");
  console.log(buildExtension(outIndex > 0 ? resolve(process.argv[outIndex + 1]) : undefined));
}
