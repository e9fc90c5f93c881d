import { KeywordFieldsError } from "../keyword-fields-error.ts";

// Always indexed in their own way; listing them again would count them twice.
const builtInFields: ReadonlySet<string> = new Set(["name", "signature", "description"]);

/**
 * Validates the `keywordFields` option and returns its distinct names, in order, frozen.
 * @throws {@link KeywordFieldsError} for anything but an array of non-empty extra field names.
 */
export function checkKeywordFields(value: unknown): readonly string[] {
  if (value === undefined) return Object.freeze([]);
  if (!Array.isArray(value)) {
    throw new KeywordFieldsError({
      keywordFields: value,
      reason: `expected an array of field names, got ${describe(value)}`,
    });
  }
  const fields = new Set<string>();
  for (const [position, field] of value.entries()) {
    if (typeof field !== "string" || field === "") {
      throw new KeywordFieldsError({
        keywordFields: value,
        reason: `entry ${position} is ${describe(field)}, not a non-empty field name`,
      });
    }
    if (builtInFields.has(field)) {
      throw new KeywordFieldsError({
        keywordFields: value,
        reason: `${JSON.stringify(field)} is always indexed; list only extra fields`,
      });
    }
    fields.add(field);
  }
  return Object.freeze([...fields]);
}

/** A record's own value for `field`: inherited members (`toString`) are not fields. */
export function ownField(record: object, field: string): unknown {
  return Object.hasOwn(record, field) ? (record as Record<string, unknown>)[field] : undefined;
}

/** Whether a record's keyword field value can be indexed: absent, a string, or strings. */
export function isKeywordValue(value: unknown): boolean {
  if (value === undefined || typeof value === "string") return true;
  return Array.isArray(value) && value.every((item) => typeof item === "string");
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "string") return JSON.stringify(value);
  if (typeof value === "object" || typeof value === "function") return `a ${typeof value}`;
  return `${typeof value} ${String(value)}`;
}
