#!/usr/bin/env node
// Generates python/dcc_blender/path_options-<version>.generated.json: every operator option and
// RNA property of the installed Blender (`$BLENDER`, else `blender`) whose value names a file or a
// folder, whatever its name or subtype, as dcc_blender.path_options.path_option_kind classifies
// Blender's own RNA data (dump-path-options.py, run inside Blender). One file per Blender
// version; sorted, so the output is stable.
//
//   node scripts/generate-path-options.mjs            write that Blender's generated file
//   node scripts/generate-path-options.mjs --check    exit 1 if the committed file is out of date

import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const packageRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const script = join(packageRoot, "scripts", "dump-path-options.py");

/** Where the generated file of Blender `version` is committed (beside the Python that reads it). */
export function pathOptionsOutputPath(version) {
  const number = String(version).split(" ")[0];
  return resolve(packageRoot, `python/dcc_blender/path_options-${number}.generated.json`);
}

/** The Blender version a generated text was made from. */
export function pathOptionsVersion(text) {
  return JSON.parse(text).blender;
}

function sorted(record) {
  return Object.fromEntries(
    Object.keys(record)
      .sort()
      .map((key) => [key, typeof record[key] === "object" ? sorted(record[key]) : record[key]]),
  );
}

/**
 * The file's text, from the installed Blender (`blender` or `$BLENDER`), run in a private
 * TMPDIR with its own user folders, removed afterwards; bounded by `timeoutMs` (default 300 s).
 */
export function pathOptionsText(options = {}) {
  const blender = options.blender ?? process.env.BLENDER ?? "blender";
  const directory = mkdtempSync(join(tmpdir(), "dcc-blender-paths-"));
  try {
    for (const folder of ["config", "scripts", "datafiles"]) mkdirSync(join(directory, folder));
    const out = join(directory, "paths.json");
    const args = ["-b", "--factory-startup", "--disable-autoexec", "--python-exit-code", "1"];
    const result = spawnSync(blender, [...args, "--python", script, "--", out], {
      encoding: "utf8",
      timeout: options.timeoutMs ?? 300_000,
      env: {
        ...process.env,
        TMPDIR: directory,
        BLENDER_USER_CONFIG: join(directory, "config"),
        BLENDER_USER_SCRIPTS: join(directory, "scripts"),
        BLENDER_USER_DATAFILES: join(directory, "datafiles"),
      },
    });
    if (result.status !== 0) {
      const why = result.error?.message ?? `exit ${result.status ?? result.signal}`;
      throw new Error(`${blender} could not dump the path options (${why}):\n${result.stderr}`);
    }
    const dump = JSON.parse(readFileSync(out, "utf8"));
    return `${JSON.stringify({ blender: dump.blender, operators: sorted(dump.operators), types: sorted(dump.types) }, null, 2)}\n`;
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const text = pathOptionsText();
  const output = pathOptionsOutputPath(pathOptionsVersion(text));
  if (process.argv.includes("--check")) {
    if (readFileSync(output, "utf8") !== text) {
      console.error(`${output} is out of date: run node scripts/generate-path-options.mjs`);
      process.exit(1);
    }
  } else {
    writeFileSync(output, text);
  }
}
