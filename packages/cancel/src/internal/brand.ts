/**
 * Brands that survive two copies of `@dcc/cancel` in one process. A class marks its instances
 * with a `Symbol.for` key (a plain property, because isolatedDeclarations rejects computed symbol
 * class members) and answers `instanceof` through that mark, so an error thrown by one copy is
 * still recognised by the other.
 */

/** Marks `target` as carrying `marker`; the property is non-enumerable and read-only. */
export function setBrand(target: object, marker: symbol): void {
  Object.defineProperty(target, marker, { value: true });
}

/** True when `value` carries `marker`, whichever copy of the package created it. */
export function hasBrand(value: unknown, marker: symbol): boolean {
  return (
    typeof value === "object" &&
    value !== null &&
    (value as Record<symbol, unknown>)[marker] === true
  );
}

const ordinaryHasInstance = Function.prototype[Symbol.hasInstance];

/**
 * Makes `value instanceof owner` also accept branded instances from another package copy.
 * Subclasses inherit static members, so for any other constructor the ordinary prototype-chain
 * check applies; otherwise every subclass would match every branded instance.
 */
export function brandedInstanceof(
  owner: abstract new (...args: never[]) => unknown,
  marker: symbol,
): void {
  Object.defineProperty(owner, Symbol.hasInstance, {
    value(this: unknown, value: unknown): boolean {
      if (this === owner) return hasBrand(value, marker);
      return ordinaryHasInstance.call(this, value);
    },
  });
}
