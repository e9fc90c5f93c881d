import { type AstNode, type FunctionNode, field, nodeField } from "./internal/ast.ts";
import { parseJsDoc } from "./internal/jsdoc.ts";
import { parseScript } from "./internal/parse-script.ts";
import { notStatic, staticJsonValue } from "./internal/static-json-value.ts";
import { topLevelFacts } from "./internal/top-level.ts";
import { type SchemaObject, type TypeScope, typeToSchema } from "./internal/type-to-schema.ts";
import { issuesOf, validatorFor } from "./internal/validator.ts";
import { NoMainFunctionError } from "./no-main-function-error.ts";
import { UnsupportedParameterTypeError } from "./unsupported-parameter-type-error.ts";

/** A JSON Schema (draft 2020-12) object describing the named parameters of a script's `main`. */
export type ParametersSchema = { [keyword: string]: unknown };

/** One parameter of `main`, in declaration order. */
export interface ScriptParameter {
  /** The parameter name, which is also its key in `params`. */
  name: string;
  /** True exactly when it has no default and is not marked optional with `?`. */
  required: boolean;
}

/** What {@link analyzeScript} learns from a script without running it. */
export interface ScriptAnalysis {
  /** The script declares a top-level `function main(...)`. */
  hasMain: boolean;
  /** `main` is declared `async`. */
  async: boolean;
  /** The parameters of `main` in order (empty without `main`). */
  parameters: readonly ScriptParameter[];
  /** The derived schema, or null without `main`. */
  parametersSchema: ParametersSchema | null;
  /** A `return` runs at the top level, so the script produces its own output. */
  hasTopLevelReturn: boolean;
  /** The top level calls `main` itself. */
  callsMainAtTopLevel: boolean;
  /**
   * The script is an entry point for parameters: it has `main`, no top-level `return` and does
   * not call `main` itself, so running the body and then `main(params)` runs `main` once.
   */
  callable: boolean;
}

const schemaDialect = "https://json-schema.org/draft/2020-12/schema";

/**
 * Parses `code` (JavaScript or TypeScript, as the sandbox reads it) and derives the parameters
 * schema of its top-level `main`.
 *
 * @throws {@link ScriptSyntaxError} when the code does not parse.
 * @throws {@link NoMainFunctionError} when `main` exists but is not a plain function declaration.
 * @throws {@link UnsupportedParameterTypeError} naming the first parameter whose type has no
 * faithful JSON form, that has no type, or whose default does not match its type.
 */
export function analyzeScript(code: string): ScriptAnalysis {
  const body = parseScript(code);
  const facts = topLevelFacts(body);
  const main = findMain(body);
  if (main === undefined) {
    return {
      hasMain: false,
      async: false,
      parameters: [],
      parametersSchema: null,
      hasTopLevelReturn: facts.hasReturn,
      callsMainAtTopLevel: facts.callsMain,
      callable: false,
    };
  }
  const { schema, parameters } = deriveFromMain(main, code, scopeOf(body));
  return {
    hasMain: true,
    async: main.async,
    parameters,
    parametersSchema: schema,
    hasTopLevelReturn: facts.hasReturn,
    callsMainAtTopLevel: facts.callsMain,
    callable: !facts.hasReturn && !facts.callsMain,
  };
}

/**
 * The parameters schema of the script's `main`.
 *
 * @throws {@link NoMainFunctionError} when there is no top-level `function main`, plus every
 * error of {@link analyzeScript}.
 */
export function deriveParametersSchema(code: string): ParametersSchema {
  const analysis = analyzeScript(code);
  if (analysis.parametersSchema === null) {
    throw new NoMainFunctionError({ detail: "declare a top-level `function main(...)`" });
  }
  return analysis.parametersSchema;
}

/**
 * True when `code` is a typed entry point rather than a plain script: it parses, declares a plain
 * top-level `function main`, has no top-level `return` and does not call `main` itself. Never
 * throws; parameter types are not checked here.
 */
export function isEntryPointScript(code: string): boolean {
  // Most scripts never mention main: skip the parse on the hot path of execute.
  if (typeof code !== "string" || !code.includes("main")) return false;
  try {
    const body = parseScript(code);
    const facts = topLevelFacts(body);
    return !facts.hasReturn && !facts.callsMain && findMain(body) !== undefined;
  } catch {
    return false;
  }
}

function findMain(body: readonly AstNode[]): FunctionNode | undefined {
  const found: FunctionNode[] = [];
  for (const declaration of body) {
    if (!declaredNames(declaration).includes("main")) continue;
    if (declaration.type === "TSDeclareFunction") {
      throw new NoMainFunctionError({ detail: "main must not be overloaded" });
    }
    if (declaration.type !== "FunctionDeclaration") {
      throw new NoMainFunctionError({
        detail: "main must be declared as `function main(...)`, not as a variable or class",
      });
    }
    found.push(declaration as unknown as FunctionNode);
  }
  if (found.length > 1) {
    throw new NoMainFunctionError({ detail: `main is declared ${found.length} times` });
  }
  const main = found[0];
  if (main?.generator === true) {
    throw new NoMainFunctionError({ detail: "main must not be a generator" });
  }
  return main;
}

function declaredNames(declaration: AstNode): string[] {
  if (declaration.type === "VariableDeclaration") {
    const declarators = field(declaration, "declarations") as AstNode[];
    return declarators.map((declarator) => {
      const id = nodeField(declarator, "id");
      return id?.type === "Identifier" ? (field(id, "name") as string) : "";
    });
  }
  const id = nodeField(declaration, "id");
  return id?.type === "Identifier" ? [field(id, "name") as string] : [];
}

function scopeOf(body: readonly AstNode[]): TypeScope {
  const scope: TypeScope = { declarations: new Map(), classes: new Map() };
  for (const statement of body) {
    const name = declaredNames(statement)[0];
    if (name === undefined) continue;
    if (
      statement.type === "TSTypeAliasDeclaration" ||
      statement.type === "TSInterfaceDeclaration"
    ) {
      scope.declarations.set(name, statement);
    } else if (statement.type === "ClassDeclaration") {
      scope.classes.set(name, "class");
    } else if (statement.type === "TSEnumDeclaration") {
      scope.classes.set(name, "enum");
    }
  }
  return scope;
}

function deriveFromMain(
  main: FunctionNode,
  source: string,
  scope: TypeScope,
): { schema: ParametersSchema; parameters: ScriptParameter[] } {
  const docComment = main.leadingComments?.findLast(
    (comment) => comment.type === "CommentBlock" && comment.value.startsWith("*"),
  );
  const doc = docComment === undefined ? undefined : parseJsDoc(docComment.value.slice(1));
  const properties: Record<string, SchemaObject> = {};
  const required: string[] = [];
  const parameters: ScriptParameter[] = [];
  for (const [index, param] of main.params.entries()) {
    const { name, schema, isRequired } = deriveParameter(param, index, source, scope);
    const description = doc?.params.get(name);
    if (description !== undefined && description !== "") schema["description"] = description;
    Object.defineProperty(properties, name, {
      value: schema,
      enumerable: true,
      writable: true,
      configurable: true,
    });
    if (isRequired) required.push(name);
    parameters.push({ name, required: isRequired });
  }
  const schema: ParametersSchema = { $schema: schemaDialect, type: "object" };
  if (doc !== undefined && doc.summary !== "") schema["description"] = doc.summary;
  schema["properties"] = properties;
  if (required.length > 0) schema["required"] = required;
  schema["additionalProperties"] = false;
  return { schema, parameters };
}

function deriveParameter(
  param: AstNode,
  index: number,
  source: string,
  scope: TypeScope,
): { name: string; schema: SchemaObject; isRequired: boolean } {
  let target = param;
  let defaultNode: AstNode | undefined;
  if (param.type === "AssignmentPattern") {
    target = nodeField(param, "left") as AstNode;
    defaultNode = nodeField(param, "right");
  }
  if (target.type !== "Identifier") {
    throw new UnsupportedParameterTypeError({
      parameter: `#${index + 1}`,
      detail: "destructured and rest parameters are not supported; declare named parameters",
    });
  }
  const name = field(target, "name") as string;
  if (name === "this") {
    throw new UnsupportedParameterTypeError({
      parameter: name,
      detail: "a `this` parameter cannot be passed by name",
    });
  }
  const annotation = nodeField(target, "typeAnnotation");
  const type = annotation === undefined ? undefined : nodeField(annotation, "typeAnnotation");
  if (type === undefined) {
    throw new UnsupportedParameterTypeError({
      parameter: name,
      detail: `it has no type annotation; declare one, e.g. \`${name}: number\``,
    });
  }
  const schema = typeToSchema(type, { source, scope, parameter: name });
  if (defaultNode !== undefined) {
    const value = staticJsonValue(defaultNode);
    if (value !== notStatic) {
      const validate = validatorFor(schema);
      if (!validate(value)) {
        const why = issuesOf(validate.errors)
          .map((issue) => issue.message)
          .join("; ");
        throw new UnsupportedParameterTypeError({
          parameter: name,
          detail: `its default ${JSON.stringify(value)} does not match its type (${why})`,
        });
      }
      schema["default"] = value;
    }
  }
  const optional = field(target, "optional") === true;
  return { name, schema, isRequired: defaultNode === undefined && !optional };
}
