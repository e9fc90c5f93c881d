// Types for the plain-JS generator, so the package's tests can import it under strict TypeScript.

export interface RawParameter {
  name: string;
  type: string;
  [key: string]: unknown;
}

export interface RawOperator {
  name: string;
  label: string;
  description: string;
  options: string[];
  params: RawParameter[];
  poll: string[];
}

export interface RawDump {
  blender: string;
  modes: string[];
  areas: string[];
  skipped: string[];
  operators: RawOperator[];
}

export interface OperatorRecord {
  name: string;
  label: string;
  description?: string;
  options?: string[];
  params?: RawParameter[];
  modes?: string[];
  areas?: string[];
}

export interface GeneratedDocument {
  blender: string;
  modes: string[];
  areas: string[];
  skippedPolls: string[];
  operators: OperatorRecord[];
}

export interface GenerateOptions {
  blender?: string;
  timeoutMs?: number;
  log?: (line: string) => void;
}

export function catalogOutputPath(version: string): string;
export function pollHint(
  poll: string[],
  allModes: string[],
): { modes?: string[]; areas?: string[] };
export function buildOperatorRecord(operator: RawOperator, allModes: string[]): OperatorRecord;
export function buildDocument(raw: RawDump, skipped: string[]): GeneratedDocument;
export function serialise(document: GeneratedDocument): string;
export function generate(options?: GenerateOptions): Promise<string>;
