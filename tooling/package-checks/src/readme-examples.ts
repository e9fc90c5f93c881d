// The README convention the package checks read. A fenced block whose info string is `ts run`
// (or `js run`) is a complete program that type-checks and runs as written against the installed
// packages with no external service; `ts check` (or `js check`) is one that type-checks but needs
// something the checks do not start (a Blender, a Redis). Plain ```ts blocks are excerpts.

/** One marked example of a README. */
export interface ReadmeExample {
  language: "ts" | "js";
  mode: "run" | "check";
  code: string;
  /** 1-based line of the opening fence, for messages. */
  line: number;
}

const fence = /^```(ts|js)[ \t]+(run|check)[ \t]*\n([\s\S]*?)^```[ \t]*$/gm;

/** The marked examples of a README, in order (top-level fences only). */
export function readmeExamples(markdown: string): ReadmeExample[] {
  const examples: ReadmeExample[] = [];
  for (const match of markdown.matchAll(fence)) {
    const line = markdown.slice(0, match.index).split("\n").length;
    examples.push({
      language: match[1] as "ts" | "js",
      mode: match[2] as "run" | "check",
      code: match[3] ?? "",
      line,
    });
  }
  return examples;
}

/**
 * The oldest TypeScript a README states its types need, as `major.minor` (from a sentence such as
 * "TypeScript 5.0 or later"), or `undefined` when it states none.
 */
export function statedTypeScript(markdown: string): string | undefined {
  return /\bTypeScript (\d+\.\d+) or later\b/.exec(markdown)?.[1];
}

/**
 * The newest of `major.minor` TypeScript versions; `"none"` if any is `"none"` (a package that
 * states no minimum), so the check fails on it rather than guessing.
 */
export function newestTypeScript(versions: readonly string[]): string {
  if (versions.length === 0 || versions.includes("none")) return "none";
  const rank = (version: string): number => {
    const [major = 0, minor = 0] = version.split(".").map(Number);
    return major * 1000 + minor;
  };
  return versions.reduce((newest, version) => (rank(version) > rank(newest) ? version : newest));
}
