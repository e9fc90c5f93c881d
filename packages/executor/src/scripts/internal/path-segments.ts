// Path segments follow upstream's materialization store exactly, so paths written by either
// implementation look the same: separators and drive colons become "_", every run of characters
// outside [A-Za-z0-9_.-] becomes "_", "._-" are trimmed from both ends, and the result is capped.

const unsafeRun = /[^A-Za-z0-9_.-]+/g;
const separators = /[\\/:]/g;

/** One filesystem-safe path segment; `fallback` when nothing safe is left. */
export function sanitizeSegment(value: string | undefined, fallback = "unknown"): string {
  const raw = (value ?? "").trim().replace(separators, "_");
  const safe = trimChars(raw.replace(unsafeRun, "_"), "._-");
  if (safe === "" || safe === "." || safe === "..") return fallback;
  return safe.slice(0, 96);
}

/** A file suffix such as `.ts`: one leading dot, then sanitised characters (no trimming). */
export function normalizeSuffix(suffix: string | undefined, fallback = ".ts"): string {
  const raw = suffix === undefined || suffix.trim() === "" ? fallback : suffix.trim();
  let body = raw.replace(separators, "_");
  while (body.startsWith(".")) body = body.slice(1);
  const safe = `.${body.replace(unsafeRun, "_")}`;
  if (safe === "." || safe === "..") return ".txt";
  return safe.slice(0, 32);
}

function trimChars(value: string, chars: string): string {
  let start = 0;
  let end = value.length;
  while (start < end && chars.includes(value[start] as string)) start++;
  while (end > start && chars.includes(value[end - 1] as string)) end--;
  return value.slice(start, end);
}
