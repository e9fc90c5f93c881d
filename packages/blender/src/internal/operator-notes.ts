import { readFileSync } from "node:fs";

const dataUrl = new URL("../data/operator-notes.json", import.meta.url);

let notes: ReadonlyMap<string, string> | undefined;

/**
 * Hand-written "used for" notes of operators whose own words miss what people call them
 * (`src/data/operator-notes.json`): operator name -> one sentence. Read once, then cached.
 */
export function operatorNotes(): ReadonlyMap<string, string> {
  notes ??= new Map(
    Object.entries(JSON.parse(readFileSync(dataUrl, "utf8")) as Record<string, string>),
  );
  return notes;
}
