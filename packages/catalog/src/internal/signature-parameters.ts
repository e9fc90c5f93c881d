// Pulls parameter and flag names out of signature text, skipping type annotations and default
// values, so `polySphere(radius: Queryable[float] = 1) -> List[str]` yields `radius` only. Works
// for Python-style, TypeScript-style (`flags?: { radius?: number }`) and MEL-style (`-radius`).

const token = /[\p{L}\p{M}\p{N}_]+|->|=>|[[\]<>(){},;:=]/gu;
const ignored: ReadonlySet<string> = new Set(["self", "args", "kwargs", "arg", "flags", "options"]);

/** Parameter names in `signature`, in order, without the command's own `name`. */
export function signatureParameters(signature: string, name: string): string[] {
  const names: string[] = [];
  let typeDepth = 0;
  let inAnnotation = false;
  for (const match of signature.matchAll(token)) {
    const text = match[0];
    switch (text) {
      case "[":
      case "<":
        typeDepth++;
        break;
      case "]":
      case ">":
        typeDepth = Math.max(0, typeDepth - 1);
        break;
      case ":":
      case "=":
      case "->":
      case "=>":
        inAnnotation = true;
        break;
      case "(":
      case "{":
      case ",":
      case ";":
      case ")":
      case "}":
        if (typeDepth === 0) inAnnotation = false;
        break;
      default:
        if (typeDepth === 0 && !inAnnotation && text !== name && !ignored.has(text)) {
          names.push(text);
        }
    }
  }
  return names;
}
