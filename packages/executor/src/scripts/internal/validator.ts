import type { Ajv2020, ErrorObject, ValidateFunction } from "ajv/dist/2020.js";
import { loadOnFirstUse } from "../../internal/load-on-first-use.ts";
import type { ParameterIssue } from "../invalid-parameters-error.ts";

// One instance for the process: compiling is the expensive part, so validators are cached by
// schema text, with a small bound because each script body yields its own schema. Strict, except
// for tuples: tuples with optional or rest elements legitimately have minItems < prefixItems.
// Created on first use, so importing the package does not load ajv.
const ajvModule = loadOnFirstUse<typeof import("ajv/dist/2020.js")>("ajv/dist/2020.js");
let ajv: Ajv2020 | undefined;
const cache = new Map<string, ValidateFunction>();
const cacheLimit = 256;

/** A validator for `schema`, compiled once per distinct schema. */
export function validatorFor(schema: object): ValidateFunction {
  const key = JSON.stringify(schema);
  let validate = cache.get(key);
  if (validate === undefined) {
    ajv ??= new (ajvModule().Ajv2020)({ allErrors: true, strict: true, strictTuples: false });
    validate = ajv.compile(schema);
    if (cache.size >= cacheLimit) cache.delete(cache.keys().next().value as string);
    cache.set(key, validate);
  }
  return validate;
}

/** Every failure of the last validation as path + message, one per failing keyword. */
export function issuesOf(errors: readonly ErrorObject[] | null | undefined): ParameterIssue[] {
  const issues: ParameterIssue[] = [];
  for (const error of errors ?? []) {
    const base = error.instancePath.slice(1);
    const params = error.params as Record<string, unknown>;
    let path = base;
    let message = error.message ?? "is invalid";
    if (error.keyword === "required") {
      path = join(base, String(params["missingProperty"]));
      message = "is required";
    } else if (error.keyword === "additionalProperties") {
      path = join(base, String(params["additionalProperty"]));
      message = "is not a known parameter";
    } else if (error.keyword === "enum") {
      message = `must be one of ${JSON.stringify(params["allowedValues"])}`;
    } else if (error.keyword === "const") {
      message = `must be ${JSON.stringify(params["allowedValue"])}`;
    }
    if (!issues.some((issue) => issue.path === path && issue.message === message)) {
      issues.push({ path, message });
    }
  }
  return issues;
}

function join(base: string, key: string): string {
  const escaped = key.replaceAll("~", "~0").replaceAll("/", "~1");
  return base === "" ? escaped : `${base}/${escaped}`;
}
