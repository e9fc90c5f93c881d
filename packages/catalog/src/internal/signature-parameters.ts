// Pulls parameter and flag names out of signature text, skipping type annotations and default
// values, so `polySphere(radius: Queryable[float] = 1) -> List[str]` yields `radius` only. Works
// for Python-style, TypeScript-style (`flags?: { radius?: number }`) and MEL-style (`-radius`).
// A hand-written scanner over character codes: it runs over every signature of a catalog.

const ignored: ReadonlySet<string> = new Set(["self", "args", "kwargs", "arg", "flags", "options"]);
const wordCharacter = /[\p{L}\p{M}\p{N}_]/u;

function isWordCode(code: number, text: string, index: number): boolean {
  if (code < 128) {
    return (
      (code >= 97 && code <= 122) ||
      (code >= 65 && code <= 90) ||
      (code >= 48 && code <= 57) ||
      code === 95
    );
  }
  return wordCharacter.test(text[index] as string);
}

/** Parameter names in `signature`, in order, without the command's own `name`. */
export function signatureParameters(signature: string, name: string): string[] {
  const names: string[] = [];
  let typeDepth = 0;
  let inAnnotation = false;
  const length = signature.length;
  let index = 0;
  while (index < length) {
    const code = signature.charCodeAt(index);
    if (isWordCode(code, signature, index)) {
      const start = index;
      index++;
      while (index < length && isWordCode(signature.charCodeAt(index), signature, index)) index++;
      if (typeDepth === 0 && !inAnnotation) {
        const text = signature.slice(start, index);
        if (text !== name && !ignored.has(text)) names.push(text);
      }
      continue;
    }
    index++;
    switch (code) {
      case 0x5b: // [
      case 0x3c: // <
        typeDepth++;
        break;
      case 0x5d: // ]
        if (typeDepth > 0) typeDepth--;
        break;
      case 0x3e: // >
        if (typeDepth > 0) typeDepth--;
        break;
      case 0x28: // ( inside an annotation or default value is a tuple, not a parameter list
        if (inAnnotation) typeDepth++;
        break;
      case 0x29: // )
        if (typeDepth > 0) typeDepth--;
        else inAnnotation = false;
        break;
      case 0x2d: // - starts a return type when it begins "->"
      case 0x3d: // = starts a default value, or a return type in "=>"
        if (signature.charCodeAt(index) === 0x3e) {
          index++;
          inAnnotation = true;
        } else if (code === 0x3d) {
          inAnnotation = true;
        }
        break;
      case 0x3a: // :
        inAnnotation = true;
        break;
      case 0x7b: // {
      case 0x7d: // }
      case 0x2c: // ,
      case 0x3b: // ;
        if (typeDepth === 0) inAnnotation = false;
        break;
    }
  }
  return names;
}
