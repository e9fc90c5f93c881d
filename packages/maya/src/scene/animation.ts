import type { KeyData, NodeData } from "./scene-state.ts";

/**
 * Value of an animation curve at `time`: the first key's value before the range, the last key's
 * after it, linear interpolation between keys (a `step` key holds its value until the next key).
 * Maya's default tangents are auto/spline; linear is the documented simplification here.
 */
export function evaluateCurve(keys: readonly KeyData[], time: number): number {
  const first = keys[0];
  if (!first) return 0;
  if (time <= first.time) return first.value;
  for (let index = 1; index < keys.length; index++) {
    const next = keys[index] as KeyData;
    const previous = keys[index - 1] as KeyData;
    if (time < next.time) {
      if (previous.step) return previous.value;
      const ratio = (time - previous.time) / (next.time - previous.time);
      return previous.value + (next.value - previous.value) * ratio;
    }
    if (time === next.time) return next.value;
  }
  return (keys.at(-1) as KeyData).value;
}

/** Inserts or replaces the key at `time`, keeping keys sorted. */
export function putKey(curve: NodeData, key: KeyData): void {
  const keys = curve.keys ?? [];
  const existing = keys.findIndex((candidate) => candidate.time === key.time);
  if (existing >= 0) keys[existing] = key;
  else keys.push(key);
  keys.sort((a, b) => a.time - b.time);
  curve.keys = keys;
}

/** The animCurve type Maya picks for an attribute: TL for translation, TA for rotation, TU else. */
export function curveTypeFor(attribute: string): string {
  if (/^translate[XYZ]$/.test(attribute)) return "animCurveTL";
  if (/^rotate[XYZ]$/.test(attribute)) return "animCurveTA";
  return "animCurveTU";
}

/** True when `time` lies within an optional inclusive `[start, end]` range. */
export function inRange(time: number, range: readonly [number, number] | undefined): boolean {
  return range === undefined || (time >= range[0] && time <= range[1]);
}
