// Types for the plain-JS Blender runner, so the package's tests can import it.
import type { GenerateOptions, RawDump } from "./generate-catalog.mjs";

export const KNOWN_CRASHING_POLLS: readonly string[];
export class BlenderDumpError extends Error {}
export function dumpOperators(
  options?: GenerateOptions,
): Promise<{ raw: RawDump; runs: number; skipped: string[] }>;
