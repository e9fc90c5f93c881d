// How a node type declares its attributes: one template per attribute, compounds with their
// children's names, built with the small helpers below.
import type { AttributeType, ScalarValue } from "../scene-state.ts";

/** A template of one attribute (a compound lists its children's names and defaults). */
export interface AttributeTemplate {
  long: string;
  short: string;
  type: AttributeType;
  value: ScalarValue | number[];
  keyable?: boolean;
  children?: Array<[long: string, short: string]>;
  enumNames?: string[];
}

/** Children `<long>X`/`<short>x`, … of a vector attribute. */
export const xyz = (long: string, short: string): Array<[string, string]> => [
  [`${long}X`, `${short}x`],
  [`${long}Y`, `${short}y`],
  [`${long}Z`, `${short}z`],
];

/** Children `<long>R`/`<short>r`, … of a colour attribute. */
export const rgb = (long: string, short: string): Array<[string, string]> => [
  [`${long}R`, `${short}r`],
  [`${long}G`, `${short}g`],
  [`${long}B`, `${short}b`],
];

/** A `double3` compound. */
export const vector = (
  long: string,
  short: string,
  value: number[],
  children: Array<[string, string]> = xyz(long, short),
  keyable = false,
): AttributeTemplate => ({ long, short, type: "double3", value, children, keyable });

/** A single-valued attribute. */
export const scalar = (
  long: string,
  short: string,
  type: AttributeType,
  value: ScalarValue,
  keyable = false,
): AttributeTemplate => ({ long, short, type, value, keyable });

/** A keyable colour compound with R/G/B children. */
export const color = (long: string, short: string, value: number[]): AttributeTemplate =>
  vector(long, short, value, rgb(long, short), true);

/** An enum attribute with its field names. */
export const enumeration = (
  long: string,
  short: string,
  value: number,
  enumNames: string[],
): AttributeTemplate => ({ ...scalar(long, short, "enum", value), enumNames });

/** What every DAG node has. */
export const dagAttributes: AttributeTemplate[] = [scalar("visibility", "v", "bool", true, true)];

/** One node type of the simulation: its base type and its own attribute templates. */
export interface NodeTypeEntry {
  /** The type it derives from (`null` for the root, `dependNode`). */
  base: string | null;
  /** Abstract in Maya: `createNode` refuses it. */
  abstract?: true;
  attributes: AttributeTemplate[];
}
