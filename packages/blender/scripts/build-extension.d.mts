// Types for the plain-JS builder, so the package's tests can import it under strict TypeScript.

export function extensionVersion(): string;
export function buildExtension(out?: string): string;
