import type { CommandRecord } from "../command-record.ts";
import { CommandRecordError } from "../command-record-error.ts";
import { isKeywordValue, ownField } from "./keyword-fields.ts";

const recordTextFields = ["signature", "description"] as const;

/**
 * Validates a caller's record and returns a copy. A missing name becomes `""` (upstream
 * keeps nameless records and sorts them as `""`), and so does a missing signature or description;
 * a non-string name, signature or description is
 * an error, and so is a keyword field (`keywordFields`) that is neither absent, a string nor an
 * array of strings.
 */
export function normaliseRecord(
  value: unknown,
  index: number | undefined,
  keywordFields: readonly string[] = [],
): CommandRecord {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new CommandRecordError({
      message: `Command record${at(index)} is not an object.`,
      ...(index === undefined ? {} : { index }),
    });
  }
  const record = value as Record<string, unknown>;
  const name = record["name"] ?? "";
  if (typeof name !== "string") {
    throw new CommandRecordError({
      message: `Command record${at(index)} has a non-string name.`,
      ...(index === undefined ? {} : { index }),
    });
  }
  for (const field of recordTextFields) {
    const text = record[field];
    if (text !== undefined && typeof text !== "string") {
      throw new CommandRecordError({
        message: `Command record ${JSON.stringify(name)}${at(index)} has a non-string ${field}.`,
        ...(index === undefined ? {} : { index }),
      });
    }
  }
  for (const field of keywordFields) {
    if (!isKeywordValue(ownField(record, field))) {
      throw new CommandRecordError({
        message:
          `Command record ${JSON.stringify(name)}${at(index)} has a keyword field ` +
          `${JSON.stringify(field)} that is not a string or an array of strings.`,
        ...(index === undefined ? {} : { index }),
      });
    }
  }
  // A copy: the catalog never hands it out (searches return copies), so it cannot change.
  return withTextFields(record, name);
}

/**
 * `record` with `name`, `signature` and `description` first and always strings (`""` for a
 * missing one), then its other fields: `dcc_search` answers carry all three keys, as upstream's.
 */
export function withTextFields(record: Record<string, unknown>, name: string): CommandRecord {
  const { name: _name, signature, description, ...extra } = record;
  return {
    name,
    signature: typeof signature === "string" ? signature : "",
    description: typeof description === "string" ? description : "",
    ...extra,
  };
}

function at(index: number | undefined): string {
  return index === undefined ? "" : ` at index ${index}`;
}
