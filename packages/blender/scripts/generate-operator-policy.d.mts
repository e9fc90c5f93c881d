// Types for the plain-JS generator, so the package's tests can import it under strict TypeScript.

export const POLICY_OUTPUT_PATH: string;
export function operatorPolicyText(): string;
export const REVIEWED_OUTPUT_PATH: string;
export function reviewedOperatorsText(): string;
