// Types for the plain-JS generator, so the package's tests can import it.
export const PATH_OPTIONS_OUTPUT_PATH: string;
export function pathOptionsText(options?: { blender?: string; timeoutMs?: number }): string;
