import { CatalogFileError } from "../catalog-file-error.ts";

/** Parses a catalog file: a JSON array of records, or JSON Lines (one record per line). */
export function parseCatalogJson(path: string, text: string): unknown[] {
  const body = text.replace(/^\uFEFF/, "").trim();
  if (body === "") return [];
  if (body.startsWith("[")) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch (cause) {
      throw new CatalogFileError({ path, message: "invalid JSON", cause });
    }
    if (!Array.isArray(parsed)) throw new CatalogFileError({ path, message: "not an array" });
    return parsed;
  }
  const records: unknown[] = [];
  const lines = body.split(/\r?\n/);
  for (let index = 0; index < lines.length; index++) {
    const line = (lines[index] as string).trim();
    if (line === "") continue;
    try {
      records.push(JSON.parse(line));
    } catch (cause) {
      throw new CatalogFileError({ path, message: `invalid JSON on line ${index + 1}`, cause });
    }
  }
  return records;
}
