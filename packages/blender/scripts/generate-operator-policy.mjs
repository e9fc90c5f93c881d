#!/usr/bin/env node
// Generates src/data/operator-policy.generated.json: for every operator of the generated catalog
// that the policy refuses by name, its rule and the reason, as python/dcc_blender/policy.py (the
// rules' one owner) says. Needs python3, not Blender. Sorted by name, so the output is stable.
//
//   node scripts/generate-operator-policy.mjs            write the generated file
//   node scripts/generate-operator-policy.mjs --check    exit 1 if the committed file is out of date

import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const packageRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const operatorsPath = resolve(packageRoot, "src/data/operators.generated.json");

/** Where the generated file is committed. */
export const POLICY_OUTPUT_PATH = resolve(packageRoot, "src/data/operator-policy.generated.json");

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
  const operators = JSON.parse(readFileSync(operatorsPath, "utf8")).operators;
  const names = operators.map((operator) => operator.name);
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
  const text = operatorPolicyText();
  if (process.argv.includes("--check")) {
    if (readFileSync(POLICY_OUTPUT_PATH, "utf8") !== text) {
      console.error(
        `${POLICY_OUTPUT_PATH} is out of date: run node scripts/generate-operator-policy.mjs`,
      );
      process.exit(1);
    }
  } else {
    writeFileSync(POLICY_OUTPUT_PATH, text);
  }
}
