export function pathOptionsText(options?: { blender?: string; timeoutMs?: number }): string;
export function pathOptionsOutputPath(version: string): string;
export function pathOptionsVersion(text: string): string;
