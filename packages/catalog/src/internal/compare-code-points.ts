// Orders strings by Unicode code point, as Python does. JS `<` compares UTF-16 code units, which
// puts astral characters (surrogate pairs) before U+E000..U+FFFF; `localeCompare` is locale-aware.

/** Negative, zero or positive as `left` sorts before, with or after `right` by code point. */
export function compareCodePoints(left: string, right: string): number {
  const length = Math.min(left.length, right.length);
  for (let index = 0; index < length; index++) {
    const a = left.charCodeAt(index);
    const b = right.charCodeAt(index);
    if (a !== b) return rank(a) - rank(b);
  }
  return left.length - right.length;
}

// At the first differing code unit, a surrogate means an astral code point, which is above every
// BMP code point; order among surrogates already follows code point order.
function rank(unit: number): number {
  if (unit >= 0xd800 && unit <= 0xdfff) return unit + 0x2000;
  if (unit >= 0xe000) return unit - 0x800;
  return unit;
}
