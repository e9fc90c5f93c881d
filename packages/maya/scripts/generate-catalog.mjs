#!/usr/bin/env node
// Generates src/catalog/maya-commands.generated.json from ../shared/data/maya-commands.json
// (names, flags and Python type annotations) and data/maya-descriptions.json (our one-line
// descriptions). Plain Node with no dependencies, so it runs before anything is built.
//
//   node scripts/generate-catalog.mjs           write the generated file
//   node scripts/generate-catalog.mjs --check   exit 1 if the committed file is out of date

import { readFileSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const packageRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..");

/** Where the generator reads and writes, relative to the package folder. */
export const paths = {
  source: resolve(packageRoot, "../../../shared/data/maya-commands.json"),
  descriptions: resolve(packageRoot, "data/maya-descriptions.json"),
  output: resolve(packageRoot, "src/catalog/maya-commands.generated.json"),
};

/** At most this many flags are written out in a signature; the rest become `…N more`. */
export const MAX_SIGNATURE_FLAGS = 25;

/** Tuples longer than this with one element type print as `T[]` (matrices, long colour lists). */
const MAX_TUPLE_LENGTH = 6;

// Flags that almost every UI control or tool context has; shown last when a signature is capped.
const BOILERPLATE_FLAGS = new Set([
  "annotation",
  "backgroundColor",
  "defineTemplate",
  "docTag",
  "dragCallback",
  "dropCallback",
  "enable",
  "enableBackground",
  "enableKeyboardFocus",
  "exists",
  "fullPathName",
  "height",
  "highlightColor",
  "image1",
  "image2",
  "image3",
  "isObscured",
  "manage",
  "noBackground",
  "numberOfPopupMenus",
  "popupMenuArray",
  "preventOverride",
  "statusBarMessage",
  "useTemplate",
  "visibleChangeCommand",
  "width",
]);

const MODE_FLAGS = new Set(["edit", "query"]);

/** Parses a Python annotation such as `Queryable[Tuple[float, float]]` into a small tree. */
export function parsePythonType(text) {
  const tokens = text.match(/\.\.\.|[A-Za-z_][A-Za-z_0-9.]*|[[\](),]/g) ?? [];
  let position = 0;
  const parseNode = () => {
    const token = tokens[position++];
    if (token === undefined) throw new Error(`Unexpected end of type: ${text}`);
    if (token === "(") {
      // `Tuple[()]`: the empty tuple.
      if (tokens[position++] !== ")") throw new Error(`Expected ")" in type: ${text}`);
      return { name: "()", args: [] };
    }
    const node = { name: token, args: [] };
    if (tokens[position] === "[") {
      position++;
      while (tokens[position] !== "]") {
        node.args.push(parseNode());
        if (tokens[position] === ",") position++;
        if (position >= tokens.length) throw new Error(`Unclosed "[" in type: ${text}`);
      }
      position++;
    }
    return node;
  };
  const node = parseNode();
  if (position !== tokens.length) throw new Error(`Trailing tokens in type: ${text}`);
  return node;
}

/** Splits `a | [b | c] | d` into its top-level members: `a`, `[b | c]`, `d`. */
function unionMembers(text) {
  const members = [];
  let depth = 0;
  let start = 0;
  for (let index = 0; index < text.length; index++) {
    const char = text[index];
    if (char === "[" || char === "(" || char === "{") depth++;
    else if (char === "]" || char === ")" || char === "}") depth--;
    else if (depth === 0 && text.startsWith(" | ", index)) {
      members.push(text.slice(start, index));
      start = index + 3;
    }
  }
  members.push(text.slice(start));
  return members;
}

const wrap = (text) => (unionMembers(text).length > 1 ? `(${text})` : text);

const unionOf = (members) => [...new Set(members.flatMap(unionMembers))].join(" | ");

/** Maps a parsed Python type to TypeScript-like text, following the dispatch convention. */
export function typeToTs(node) {
  const args = node.args;
  switch (node.name) {
    case "float":
    case "int":
      return "number";
    case "str":
      return "string";
    case "bool":
      return "boolean";
    case "Any":
    case "Unknown":
      return "unknown";
    case "None":
      return "null";
    case "...":
      return "unknown";
    case "()":
      return "[]";
    case "Callable":
      // Callbacks cannot cross the JSON bridge; Maya also accepts a script string for most.
      return "Function";
    case "Queryable":
      // In query mode the flag is passed `true`; in create/edit mode it takes the value.
      return typeToTs(args[0]);
    case "Multiuse":
      return unionOf([typeToTs(args[0]), `${wrap(typeToTs(args[0]))}[]`]);
    case "List":
      return `${wrap(typeToTs(args[0]))}[]`;
    case "Optional":
      return unionOf([typeToTs(args[0]), "null"]);
    case "Union":
      return unionOf(args.map(typeToTs));
    case "Range":
      return unionOf([`[${typeToTs(args[0])}]`, `[${typeToTs(args[0])}, ${typeToTs(args[0])}]`]);
    case "NullableRange": {
      const inner = unionOf([typeToTs(args[0]), "null"]);
      return unionOf([`[${inner}]`, `[${inner}, ${inner}]`]);
    }
    case "Tuple": {
      if (args.length === 1 && args[0].name === "()") return "[]";
      const items = args.map(typeToTs);
      if (items.length > MAX_TUPLE_LENGTH && new Set(items).size === 1) {
        return `${wrap(items[0])}[]`;
      }
      return `[${items.join(", ")}]`;
    }
    default:
      throw new Error(`Unknown Python type: ${node.name}`);
  }
}

/** Maps a Python annotation string to TypeScript-like text. */
export function mapPythonType(text) {
  return typeToTs(parsePythonType(text));
}

/**
 * The create-mode return type. Stubs of commands with a query mode return a union whose first
 * member is the create-mode result and whose other members are what query mode can return.
 */
export function createModeReturn(text, hasQueryMode) {
  const node = parsePythonType(text);
  if (node.name === "None") return "void";
  if (hasQueryMode && node.name === "Union" && node.args.length > 0) {
    const first = node.args[0];
    return first.name === "None" ? "void" : typeToTs(first);
  }
  return typeToTs(node);
}

const isPositional = (param) => param.variadic === true || /^arg\d+$/.test(param.name);

/** The `args` parameter text: positional values in Maya's order, e.g. `[number?, ...string[]]`. */
export function positionalType(params) {
  const fixed = params.filter((param) => !param.variadic).map((param) => mapPythonType(param.type));
  const variadic = params.find((param) => param.variadic);
  const rest = variadic ? `...${wrap(mapPythonType(variadic.type))}[]` : undefined;
  if (fixed.length === 0 && rest) return rest.slice(3);
  // Every positional argument of maya.cmds has a default, so each tuple element is optional.
  const items = fixed.map((item) => `${wrap(item)}?`);
  if (rest) items.push(rest);
  return `[${items.join(", ")}]`;
}

const mentions = (description, flag) =>
  description !== undefined &&
  new RegExp(`(^|[^A-Za-z0-9])${flag}([^A-Za-z0-9]|$)`).test(description);

/** Chooses which flags a capped signature shows: those the description names, then the rest. */
function chooseShownFlags(flags, description) {
  const rank = (param) => {
    if (MODE_FLAGS.has(param.name)) return 0;
    if (mentions(description, param.name)) return 1;
    return BOILERPLATE_FLAGS.has(param.name) ? 3 : 2;
  };
  const ordered = [...flags].sort(
    (a, b) => rank(a) - rank(b) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0),
  );
  const shown = new Set(ordered.slice(0, MAX_SIGNATURE_FLAGS).map((param) => param.name));
  return flags.filter((param) => shown.has(param.name));
}

/** Builds one catalog record from a command of the source data. */
export function buildRecord(command, description) {
  const positional = command.params.filter(isPositional);
  const flags = command.params.filter((param) => !isPositional(param));
  const queryable = flags.some((param) => param.name === "query");
  const editable = flags.some((param) => param.name === "edit");
  const shown = chooseShownFlags(flags, description).sort((a, b) => {
    const modeA = MODE_FLAGS.has(a.name) ? 1 : 0;
    const modeB = MODE_FLAGS.has(b.name) ? 1 : 0;
    return modeA - modeB || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
  });
  const flagText = shown.map((param) => {
    const marker = param.type.startsWith("Queryable[") ? " /*q*/" : "";
    return `${param.name}?: ${mapPythonType(param.type)}${marker}`;
  });
  // The note sits inside the last flag's type, as a comment, so tools that read parameter names
  // out of the signature do not take "more" or "flags" for flag names.
  const hidden = flags.length - shown.length;
  if (hidden > 0) flagText.push(`${flagText.pop()} /* …${hidden} more flags */`);

  const parts = [];
  if (positional.length > 0) parts.push(`args?: ${positionalType(positional)}`);
  if (flags.length > 0) parts.push(`flags?: { ${flagText.join("; ")} }`);
  const returns = createModeReturn(command.returns, queryable);

  const record = {
    name: command.name,
    signature: `${command.name}(${parts.join(", ")}): ${returns}`,
  };
  if (description !== undefined) record.description = description;
  record.flags = flags.map((param) => param.name);
  record.returns = returns;
  if (queryable) record.queryable = true;
  if (editable) record.editable = true;
  return record;
}

/** Builds all records; throws if a description names a command the data does not have. */
export function buildCatalog(commands, descriptions) {
  const known = new Set(commands.map((command) => command.name));
  const unknown = Object.keys(descriptions).filter((name) => !known.has(name));
  if (unknown.length > 0) {
    throw new Error(`Descriptions for commands not in the data: ${unknown.join(", ")}`);
  }
  return commands.map((command) =>
    buildRecord(
      command,
      Object.hasOwn(descriptions, command.name) ? descriptions[command.name] : undefined,
    ),
  );
}

/** Serialises records one per line, so a change shows as a small diff. */
export function serialise(records) {
  return `[\n${records.map((record) => JSON.stringify(record)).join(",\n")}\n]\n`;
}

/** Reads the inputs and returns the generated file's text. */
export function generate(options = {}) {
  const source = options.source ?? paths.source;
  const commands = JSON.parse(readFileSync(source, "utf8"));
  const descriptions = JSON.parse(readFileSync(options.descriptions ?? paths.descriptions, "utf8"));
  return serialise(buildCatalog(commands, descriptions));
}

const invokedDirectly =
  process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (invokedDirectly) {
  const text = generate();
  if (process.argv.includes("--check")) {
    const current = (() => {
      try {
        return readFileSync(paths.output, "utf8");
      } catch {
        return "";
      }
    })();
    if (current !== text) {
      console.error(`${paths.output} is out of date: run pnpm generate:catalog`);
      process.exit(1);
    }
    console.log("maya-commands.generated.json is up to date");
  } else {
    writeFileSync(paths.output, text);
    console.log(`wrote ${paths.output}`);
  }
}
