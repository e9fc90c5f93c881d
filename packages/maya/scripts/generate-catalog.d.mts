// Types for the plain-JS generator, so the package's tests can import it under strict TypeScript.

export interface PythonTypeNode {
  name: string;
  args: PythonTypeNode[];
}

export interface SourceParameter {
  name: string;
  type: string;
  variadic?: boolean;
}

export interface SourceCommand {
  name: string;
  params: SourceParameter[];
  returns: string;
}

export interface GeneratedRecord {
  name: string;
  signature: string;
  description?: string;
  flags: string[];
  returns: string;
  queryable?: true;
  editable?: true;
}

export const paths: { source: string; descriptions: string; output: string };
export const MAX_SIGNATURE_FLAGS: number;
export function parsePythonType(text: string): PythonTypeNode;
export function typeToTs(node: PythonTypeNode): string;
export function mapPythonType(text: string): string;
export function createModeReturn(text: string, hasQueryMode: boolean): string;
export function positionalType(params: SourceParameter[]): string;
export function buildRecord(
  command: SourceCommand,
  description: string | undefined,
): GeneratedRecord;
export function buildCatalog(
  commands: SourceCommand[],
  descriptions: Record<string, string>,
): GeneratedRecord[];
export function serialise(records: GeneratedRecord[]): string;
export function generate(options?: { source?: string; descriptions?: string }): string;
