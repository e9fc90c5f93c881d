#!/usr/bin/env node
// Generates, from the committed catalogs of every tested Blender (src/data/operators-*.json):
// - src/data/operator-policy.generated.json: for every operator that the policy refuses by name,
//   its rule and the reason, as python/dcc_blender/policy.py (the rules' one owner) says;
// - python/dcc_blender/reviewed_operators.generated.json: every operator of those Blenders, the ones the
//   rules were reviewed against (the host refuses any other). A new tested version's additions
//   are reviewed before they join: see README, "Adding a Blender version".
// Needs python3, not Blender. Sorted by name, so the output is stable.
//
//   node scripts/generate-operator-policy.mjs            write the generated files
//   node scripts/generate-operator-policy.mjs --check    exit 1 if a committed file is out of date

import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const packageRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const dataDir = resolve(packageRoot, "src/data");

/** Where the generated file is committed. */
export const POLICY_OUTPUT_PATH = resolve(packageRoot, "src/data/operator-policy.generated.json");
/** Where the reviewed operators are committed (beside the Python that reads them). */
export const REVIEWED_OUTPUT_PATH = resolve(
  packageRoot,
  "python/dcc_blender/reviewed_operators.generated.json",
);

/** The tested versions and every operator name of their committed catalogs, sorted. */
function committedOperators() {
  const versions = [];
  const names = new Set();
  for (const file of readdirSync(dataDir).sort()) {
    const match = /^operators-(.+)\.generated\.json$/.exec(file);
    if (match === null) continue;
    versions.push(match[1]);
    const document = JSON.parse(readFileSync(resolve(dataDir, file), "utf8"));
    for (const operator of document.operators) names.add(operator.name);
  }
  return { versions, names: [...names].sort() };
}

/** The reviewed list's text. */
export function reviewedOperatorsText() {
  const { versions, names } = committedOperators();
  return `${JSON.stringify({ versions, operators: names }, null, 1)}\n`;
}

const program = `
import json, sys
from dcc_blender.policy import operator_rule
marks = {}
for name in sorted(json.load(sys.stdin)):
    found = operator_rule(name)
    if found is not None:
        marks[name] = {"rule": found[0], "reason": found[1]}
print(json.dumps(marks, indent=2, ensure_ascii=False))
`;

/** The file's text, from the committed operator list and the policy's rules. */
export function operatorPolicyText() {
  const { names } = committedOperators();
  return execFileSync("python3", ["-c", program], {
    cwd: resolve(packageRoot, "python"),
    // The policy builds on dcc_link (the Python side of @dcc/link, a dependency).
    env: { ...process.env, PYTHONPATH: resolve(packageRoot, "node_modules/@dcc/link/python") },
    input: JSON.stringify(names),
    encoding: "utf8",
    timeout: 60_000,
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const outputs = [
    [POLICY_OUTPUT_PATH, operatorPolicyText()],
    [REVIEWED_OUTPUT_PATH, reviewedOperatorsText()],
  ];
  for (const [path, text] of outputs) {
    if (!process.argv.includes("--check")) {
      writeFileSync(path, text);
    } else if (readFileSync(path, "utf8") !== text) {
      console.error(`${path} is out of date: run node scripts/generate-operator-policy.mjs`);
      process.exit(1);
    }
  }
}
