// Python's repr() of a str, so search messages quote the query exactly as upstream does.

const nonPrintable = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Zs}]/u;

function hex(codePoint: number, width: number): string {
  return codePoint.toString(16).padStart(width, "0");
}

/** `'text'`, or `"text"` when it contains `'` and no `"`; with Python's escapes. */
export function pythonRepr(text: string): string {
  const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
  let out = quote;
  for (const char of text) {
    const codePoint = char.codePointAt(0) ?? 0;
    if (char === quote || char === "\\") out += `\\${char}`;
    else if (char === "\n") out += "\\n";
    else if (char === "\r") out += "\\r";
    else if (char === "\t") out += "\\t";
    else if (char !== " " && nonPrintable.test(char)) {
      if (codePoint < 0x100) out += `\\x${hex(codePoint, 2)}`;
      else if (codePoint < 0x10000) out += `\\u${hex(codePoint, 4)}`;
      else out += `\\U${hex(codePoint, 8)}`;
    } else out += char;
  }
  return out + quote;
}
