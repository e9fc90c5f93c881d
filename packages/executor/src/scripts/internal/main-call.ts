/**
 * Guest code that runs the script body unchanged (so error lines match the file) and then returns
 * `await main(...)` with the parameters in declaration order. Values travel as one JSON string
 * literal parsed inside the guest; only indices and `void 0` for absent parameters (so their
 * defaults apply) are written as code.
 */
export function buildMainCall(
  code: string,
  parameterNames: readonly string[],
  params: Readonly<Record<string, unknown>>,
): string {
  const values = parameterNames.map((name) => (Object.hasOwn(params, name) ? params[name] : null));
  const argumentsText = parameterNames
    .map((name, index) => (Object.hasOwn(params, name) ? `__dccParams[${index}]` : "void 0"))
    .join(", ");
  const literal = JSON.stringify(JSON.stringify(values));
  return `${code}\n;{ const __dccParams = JSON.parse(${literal}); return await main(${argumentsText}); }\n`;
}
