// What a `data.call` path names, read without Blender: the approval rules look for the calls
// that remove data-blocks (`objects.remove`) or write an image's file (`images["x"].save`).

/** A parsed step: `.name`, `["key"]` or `[0]`. */
type Step =
  | { readonly kind: "attr"; readonly value: string }
  | { readonly kind: "key"; readonly value: string }
  | { readonly kind: "index"; readonly value: number };

const stepPattern =
  /^(?:\.([A-Za-z][A-Za-z0-9_]*)|\[(-?\d+)\]|\[("(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*')\])/;

/**
 * The steps of a data path as the host's parser reads it (a root name, then `.name`, `["key"]`
 * and `[0]` steps), with a leading `context.blend_data` taken as `bpy.data`; undefined for a
 * path this reading does not follow (the host says what is wrong with it).
 */
export function dataPathSteps(path: string): Step[] | undefined {
  const root = /^([A-Za-z][A-Za-z0-9_]*)/.exec(path);
  if (root === null) return undefined;
  const steps: Step[] = [{ kind: "attr", value: root[1] as string }];
  let rest = path.slice(root[0].length);
  while (rest !== "") {
    const match = stepPattern.exec(rest);
    if (match === null) return undefined;
    if (match[1] !== undefined) steps.push({ kind: "attr", value: match[1] });
    else if (match[2] !== undefined) steps.push({ kind: "index", value: Number(match[2]) });
    else steps.push({ kind: "key", value: unquote(match[3] as string) });
    rest = rest.slice(match[0].length);
  }
  const [first, second] = steps;
  if (first?.value === "context" && second?.kind === "attr" && second.value === "blend_data") {
    return steps.slice(2);
  }
  return first?.value === "context" ? undefined : steps;
}

/** The data-block `collection["name"]` a path names directly, else undefined. */
export function dataBlockOf(path: string): { collection: string; name: string } | undefined {
  const steps = dataPathSteps(path);
  if (steps?.length !== 2) return undefined;
  const [collection, key] = steps as [Step, Step];
  if (collection.kind !== "attr" || key.kind !== "key") return undefined;
  return { collection: collection.value, name: key.value };
}

/**
 * What a `data.call` path does that an approval rule covers: `remove` (a `bpy.data`
 * collection's `remove`, or `batch_remove` / `orphans_purge` of `bpy.data`), `image-save` (an
 * image's `save` or `save_render`), else undefined.
 */
export function dataCallKind(
  path: unknown,
):
  | { kind: "remove"; collection: string }
  | { kind: "batch-remove" }
  | { kind: "purge" }
  | { kind: "image-save"; image: string; function: string }
  | undefined {
  if (typeof path !== "string") return undefined;
  const steps = dataPathSteps(path);
  if (steps === undefined) return undefined;
  const last = steps.at(-1);
  if (last?.kind !== "attr") return undefined;
  if (steps.length === 1 && last.value === "batch_remove") return { kind: "batch-remove" };
  if (steps.length === 1 && last.value === "orphans_purge") return { kind: "purge" };
  const first = steps[0] as Step;
  if (steps.length === 2 && last.value === "remove" && first.kind === "attr") {
    return { kind: "remove", collection: first.value };
  }
  if (
    steps.length === 3 &&
    first.value === "images" &&
    steps[1]?.kind === "key" &&
    (last.value === "save" || last.value === "save_render")
  ) {
    return { kind: "image-save", image: steps[1].value, function: last.value };
  }
  return undefined;
}

function unquote(quoted: string): string {
  const body = quoted.slice(1, -1);
  return body.replace(/\\(u[0-9a-fA-F]{4}|.)/g, (_, sequence: string) => {
    if (sequence.length === 5) return String.fromCharCode(Number.parseInt(sequence.slice(1), 16));
    return { n: "\n", t: "\t", r: "\r" }[sequence] ?? sequence;
  });
}
