/** The summary and `@param` descriptions of a JSDoc block. */
export interface JsDoc {
  summary: string;
  params: Map<string, string>;
}

/**
 * Reads a `/** ... *\/` comment body: the text before the first tag is the summary, and
 * `@param [{type}] name [-] text` lines give parameter descriptions (`[name]` and `[name=x]`
 * forms included). Other tags are ignored.
 */
export function parseJsDoc(comment: string): JsDoc {
  const lines = comment.split("\n").map((line) => {
    const trimmed = line.trim();
    return (trimmed.startsWith("*") ? trimmed.slice(1) : trimmed).trim();
  });
  const summary: string[] = [];
  const params = new Map<string, string>();
  let current: string[] | undefined = summary;
  let currentParam: string | undefined;
  const flush = (): void => {
    if (currentParam !== undefined && current !== undefined) {
      params.set(currentParam, current.join(" ").trim());
    }
  };
  for (const line of lines) {
    if (!line.startsWith("@")) {
      if (line !== "") current?.push(line);
      continue;
    }
    flush();
    currentParam = undefined;
    current = undefined;
    if (!line.startsWith("@param")) continue;
    let rest = line.slice("@param".length).trim();
    if (rest.startsWith("{")) {
      const close = rest.indexOf("}");
      rest = close < 0 ? "" : rest.slice(close + 1).trim();
    }
    const space = rest.search(/\s/);
    let name = space < 0 ? rest : rest.slice(0, space);
    let text = space < 0 ? "" : rest.slice(space + 1).trim();
    if (name.startsWith("["))
      name = name.slice(1, name.endsWith("]") ? -1 : undefined).split("=")[0] ?? "";
    if (text.startsWith("- ")) text = text.slice(2);
    if (name === "") continue;
    currentParam = name;
    current = text === "" ? [] : [text];
  }
  flush();
  return { summary: summary.join(" ").trim(), params };
}
