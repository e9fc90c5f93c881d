import { CatalogLineError } from "../catalog-line-error.ts";
import type { CommandRecord } from "../command-record.ts";
import { pythonSplitLines, pythonStrip } from "./python-text.ts";

const usableName = /[\p{L}\p{N}_]/u;

/**
 * Parses `name - description` lines exactly as upstream: Python `splitlines`, each line stripped,
 * blank and `#` lines skipped, split on the first `" - "`, both parts stripped. Parsed records
 * have no signature. A name with no letter, digit or underscore is rejected with its line number.
 */
export function parseCatalogText(text: string): CommandRecord[] {
  const records: CommandRecord[] = [];
  const lines = pythonSplitLines(text);
  for (let index = 0; index < lines.length; index++) {
    const line = pythonStrip(lines[index] as string);
    if (line === "" || line.startsWith("#")) continue;
    const separator = line.indexOf(" - ");
    const name = separator < 0 ? line : pythonStrip(line.slice(0, separator));
    const description = separator < 0 ? "" : pythonStrip(line.slice(separator + 3));
    if (!usableName.test(name)) throw new CatalogLineError({ lineNumber: index + 1, line });
    records.push({ name, description });
  }
  return records;
}
