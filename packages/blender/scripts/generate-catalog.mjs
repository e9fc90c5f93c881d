#!/usr/bin/env node
// Generates src/data/operators-<version>.generated.json from the installed Blender (`$BLENDER`,
// else `blender`): every bpy.ops operator with its label, description, typed parameters and the
// modes and editors in which its poll() passed. One file per tested Blender version. Plain Node
// with no dependencies, so it runs before anything is built. The output is deterministic:
// operators sorted by name, keys in a fixed order, no timestamps.
//
//   node scripts/generate-catalog.mjs                write that Blender's generated file
//   node scripts/generate-catalog.mjs --check        exit 1 if the committed file is out of date
//   node scripts/generate-catalog.mjs --out FILE     write somewhere else

import { readFileSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { dumpOperators } from "./run-blender-dump.mjs";

const packageRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..");

/** Where the generated file of Blender `version` (`5.2.2 LTS` or `5.2.2`) is committed. */
export function catalogOutputPath(version) {
  const number = String(version).split(" ")[0];
  return resolve(packageRoot, `src/data/operators-${number}.generated.json`);
}

// Parameter keys in the order they are written.
const parameterKeys = [
  "name",
  "type",
  "subtype",
  "length",
  "default",
  "min",
  "max",
  "items",
  "flag",
  "dynamic",
  "struct",
  "required",
  "description",
];

const byCodePoint = (a, b) => (a < b ? -1 : a > b ? 1 : 0);

/** One parameter with its keys in a fixed order; absent keys stay absent. */
function orderParameter(parameter) {
  const ordered = {};
  for (const key of parameterKeys) {
    if (parameter[key] !== undefined) ordered[key] = parameter[key];
  }
  return ordered;
}

/**
 * Turns the poll results ("MODE/AREA" pairs, "-" for no area) into the record's hint:
 * `modes` when poll() did not pass in every tested mode (`[]` when it passed nowhere), `areas`
 * when it passed only with an editor area, never without one.
 */
export function pollHint(poll, allModes) {
  const modes = [...new Set(poll.map((pair) => pair.split("/")[0]))];
  const hint = {};
  if (modes.length !== allModes.length) hint.modes = allModes.filter((m) => modes.includes(m));
  const needsArea = poll.length > 0 && !poll.some((pair) => pair.endsWith("/-"));
  if (needsArea) hint.areas = [...new Set(poll.map((pair) => pair.split("/")[1]))].sort();
  return hint;
}

/** Builds the catalog record of one operator of the dump. */
export function buildOperatorRecord(operator, allModes) {
  const record = { name: operator.name, label: operator.label };
  if (operator.description !== "") record.description = operator.description;
  if (operator.options.length > 0) record.options = [...operator.options].sort(byCodePoint);
  if (operator.params.length > 0) record.params = operator.params.map(orderParameter);
  return { ...record, ...pollHint(operator.poll, allModes) };
}

/** Builds the generated document from Blender's raw dump. */
export function buildDocument(raw, skipped) {
  const operators = raw.operators
    .map((operator) => buildOperatorRecord(operator, raw.modes))
    .sort((a, b) => byCodePoint(a.name, b.name));
  return {
    blender: raw.blender,
    modes: raw.modes,
    areas: raw.areas,
    skippedPolls: [...skipped].sort(byCodePoint),
    operators,
  };
}

/** Serialises the document with one operator per line, so a change shows as a small diff. */
export function serialise(document) {
  const { operators, ...head } = document;
  const lines = Object.entries(head).map(
    ([key, value]) => `  ${JSON.stringify(key)}: ${JSON.stringify(value)},`,
  );
  const body = operators.map((operator) => `    ${JSON.stringify(operator)}`).join(",\n");
  return `{\n${lines.join("\n")}\n  "operators": [\n${body}\n  ]\n}\n`;
}

/**
 * Runs Blender and returns the generated file's text. Options as for `dumpOperators`
 * (`blender`, `timeoutMs`, `log`).
 */
export async function generate(options = {}) {
  const { raw, skipped } = await dumpOperators(options);
  return serialise(buildDocument(raw, skipped));
}

const invokedDirectly =
  process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (invokedDirectly) {
  const outIndex = process.argv.indexOf("--out");
  const started = performance.now();
  const text = await generate({ log: (line) => console.error(line) });
  const output =
    outIndex > 0
      ? resolve(process.argv[outIndex + 1])
      : catalogOutputPath(JSON.parse(text).blender);
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  if (process.argv.includes("--check")) {
    let current = "";
    try {
      current = readFileSync(output, "utf8");
    } catch {}
    if (current !== text) {
      console.error(`${output} is out of date: run pnpm --filter @dcc/blender generate:catalog`);
      process.exit(1);
    }
    console.log(`${output} is up to date (${seconds} s)`);
  } else {
    writeFileSync(output, text);
    console.log(`wrote ${output} (${text.length} bytes, ${seconds} s)`);
  }
}
