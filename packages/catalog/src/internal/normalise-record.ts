import type { CommandRecord } from "../command-record.ts";
import { CommandRecordError } from "../command-record-error.ts";

/**
 * Validates a caller's record and returns a frozen copy. A missing name becomes `""` (upstream
 * keeps nameless records and sorts them as `""`); a non-string name, signature or description is
 * an error.
 */
export function normaliseRecord(value: unknown, index: number | undefined): CommandRecord {
  const at = index === undefined ? "" : ` at index ${index}`;
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new CommandRecordError({
      message: `Command record${at} is not an object.`,
      ...(index === undefined ? {} : { index }),
    });
  }
  const record = value as Record<string, unknown>;
  const name = record["name"] ?? "";
  if (typeof name !== "string") {
    throw new CommandRecordError({
      message: `Command record${at} has a non-string name.`,
      ...(index === undefined ? {} : { index }),
    });
  }
  for (const field of ["signature", "description"]) {
    const text = record[field];
    if (text !== undefined && typeof text !== "string") {
      throw new CommandRecordError({
        message: `Command record ${JSON.stringify(name)}${at} has a non-string ${field}.`,
        ...(index === undefined ? {} : { index }),
      });
    }
  }
  return Object.freeze({ ...record, name });
}
