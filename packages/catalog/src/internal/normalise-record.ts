import type { CommandRecord } from "../command-record.ts";
import { CommandRecordError } from "../command-record-error.ts";

const recordTextFields = ["signature", "description"] as const;

/**
 * Validates a caller's record and returns a copy. A missing name becomes `""` (upstream
 * keeps nameless records and sorts them as `""`); a non-string name, signature or description is
 * an error.
 */
export function normaliseRecord(value: unknown, index: number | undefined): CommandRecord {
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
  // A copy: the catalog never hands it out (searches return copies), so it cannot change.
  return { ...record, name };
}

function at(index: number | undefined): string {
  return index === undefined ? "" : ` at index ${index}`;
}
