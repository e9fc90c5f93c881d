import { UnsupportedParameterTypeError } from "../unsupported-parameter-type-error.ts";
import { type AstNode, field, nodeField, nodeList, sourceText } from "./ast.ts";

/** A JSON Schema object as emitted by the derivation. */
export type SchemaObject = { [keyword: string]: unknown };

/** Top-level type declarations of a script that parameter types may refer to. */
export interface TypeScope {
  /** `type X = ...` and `interface X {...}` by name. */
  declarations: Map<string, AstNode>;
  /** Names of top-level classes and enums, for clearer rejections. */
  classes: Map<string, "class" | "enum">;
}

interface Context {
  source: string;
  scope: TypeScope;
  parameter: string;
  path: string;
  resolving: readonly string[];
}

/** The alias name that means "a JSON integer"; declare it as `type integer = number`. */
export const integerAlias = "integer";

const notJson: Record<string, string> = {
  Date: "a Date would arrive as a string; take an ISO string (string) or epoch milliseconds (number)",
  Map: "a Map has no JSON form; use Record<string, T>",
  Set: "a Set has no JSON form; use T[]",
  WeakMap: "a WeakMap has no JSON form; use Record<string, T>",
  WeakSet: "a WeakSet has no JSON form; use T[]",
  Promise: "parameters arrive as JSON values, never promises",
  RegExp: "a RegExp has no JSON form; take its source as a string",
  Function: "functions cannot be passed as JSON",
  BigInt: "bigint has no JSON form; use number or a decimal string",
  Symbol: "symbols have no JSON form",
  Error: "an Error has no faithful JSON form",
  Object: "Object accepts anything; use an object type literal or Record<string, T>",
};

/** Converts the type annotation of `parameter` to a JSON Schema, or throws naming it. */
export function typeToSchema(
  node: AstNode,
  options: { source: string; scope: TypeScope; parameter: string },
): SchemaObject {
  return convert(node, { ...options, path: options.parameter, resolving: [] });
}

function reject(context: Context, node: AstNode, reason: string): never {
  const where = context.path === context.parameter ? "" : ` at ${context.path}`;
  throw new UnsupportedParameterTypeError({
    parameter: context.parameter,
    detail: `type '${sourceText(context.source, node)}'${where} is not supported: ${reason}`,
  });
}

function convert(node: AstNode, context: Context): SchemaObject {
  switch (node.type) {
    case "TSNumberKeyword":
      return { type: "number" };
    case "TSStringKeyword":
      return { type: "string" };
    case "TSBooleanKeyword":
      return { type: "boolean" };
    case "TSNullKeyword":
      return { type: "null" };
    case "TSParenthesizedType":
    case "TSOptionalType":
      return convert(inner(node, "typeAnnotation"), context);
    case "TSLiteralType": {
      const value = literalValue(node, context);
      return { const: value };
    }
    case "TSUnionType":
      return union(node, context);
    case "TSArrayType":
      return { type: "array", items: convert(inner(node, "elementType"), at(context, "[]")) };
    case "TSTupleType":
      return tuple(node, context);
    case "TSTypeLiteral":
      return objectType(nodeList(node, "members"), context);
    case "TSTypeOperator":
      if (field(node, "operator") !== "readonly") {
        return reject(context, node, "only the readonly operator is supported");
      }
      return convert(inner(node, "typeAnnotation"), context);
    case "TSTypeReference":
      return reference(node, context);
    case "TSUndefinedKeyword":
    case "TSVoidKeyword":
      return reject(
        context,
        node,
        "undefined has no JSON form; mark the parameter optional (?) or give it a default",
      );
    case "TSAnyKeyword":
    case "TSUnknownKeyword":
      return reject(context, node, "declare a concrete JSON type so callers know what to send");
    case "TSBigIntKeyword":
      return reject(context, node, notJson["BigInt"] as string);
    case "TSSymbolKeyword":
      return reject(context, node, notJson["Symbol"] as string);
    case "TSFunctionType":
    case "TSConstructorType":
      return reject(context, node, notJson["Function"] as string);
    case "TSObjectKeyword":
      return reject(context, node, notJson["Object"] as string);
    default:
      return reject(
        context,
        node,
        "use number, integer, string, boolean, literal unions, arrays, tuples, object types or Record<string, T>",
      );
  }
}

function inner(node: AstNode, key: string): AstNode {
  const child = nodeField(node, key);
  if (child === undefined) throw new Error(`Babel node ${node.type} has no ${key}`);
  return child;
}

function at(context: Context, segment: string): Context {
  const path = segment.startsWith("[") ? `${context.path}${segment}` : `${context.path}.${segment}`;
  return { ...context, path };
}

function literalValue(node: AstNode, context: Context): string | number | boolean {
  const literal = inner(node, "literal");
  if (literal.type === "StringLiteral" || literal.type === "BooleanLiteral") {
    return field(literal, "value") as string | boolean;
  }
  if (literal.type === "NumericLiteral") return field(literal, "value") as number;
  if (literal.type === "UnaryExpression" && field(literal, "operator") === "-") {
    const argument = nodeField(literal, "argument");
    if (argument?.type === "NumericLiteral") return -(field(argument, "value") as number);
  }
  if (literal.type === "TemplateLiteral" && nodeList(literal, "expressions").length === 0) {
    const quasi = nodeList(literal, "quasis")[0];
    const cooked = quasi === undefined ? undefined : (field(quasi, "value") as { cooked?: string });
    if (typeof cooked?.cooked === "string") return cooked.cooked;
  }
  if (literal.type === "BigIntLiteral") return reject(context, node, notJson["BigInt"] as string);
  return reject(context, node, "only string, number and boolean literals are supported");
}

function flattenUnion(node: AstNode): AstNode[] {
  if (node.type === "TSParenthesizedType") return flattenUnion(inner(node, "typeAnnotation"));
  if (node.type !== "TSUnionType") return [node];
  return nodeList(node, "types").flatMap(flattenUnion);
}

function union(node: AstNode, context: Context): SchemaObject {
  const members = flattenUnion(node);
  const nullable = members.some((member) => member.type === "TSNullKeyword");
  const rest = members.filter((member) => member.type !== "TSNullKeyword");
  if (rest.length === 0) return { type: "null" };
  if (rest.every((member) => member.type === "TSLiteralType")) {
    const values: unknown[] = [];
    for (const member of rest) {
      const value = literalValue(member, context);
      if (!values.includes(value)) values.push(value);
    }
    if (nullable) values.push(null);
    return { enum: values };
  }
  if (rest.length === 1) {
    const single = convert(rest[0] as AstNode, context);
    return nullable ? withNull(single) : single;
  }
  const anyOf = rest.map((member) => convert(member, context));
  if (nullable) anyOf.push({ type: "null" });
  return { anyOf };
}

/** `schema` widened to also accept null, in the plainest form that says so. */
function withNull(schema: SchemaObject): SchemaObject {
  if (Array.isArray(schema["enum"])) return { ...schema, enum: [...schema["enum"], null] };
  if ("const" in schema) return { enum: [schema["const"], null] };
  if (typeof schema["type"] === "string") return { ...schema, type: [schema["type"], "null"] };
  return { anyOf: [schema, { type: "null" }] };
}

function tuple(node: AstNode, context: Context): SchemaObject {
  const prefixItems: SchemaObject[] = [];
  let minItems = 0;
  let restItems: SchemaObject | undefined;
  for (const [index, element] of nodeList(node, "elementTypes").entries()) {
    const elementContext = at(context, `[${index}]`);
    let type = element;
    let optional = false;
    if (type.type === "TSRestType") {
      type = inner(type, "typeAnnotation");
      if (type.type === "TSNamedTupleMember") type = inner(type, "elementType");
      const items = type.type === "TSArrayType" ? nodeField(type, "elementType") : undefined;
      if (items === undefined) return reject(elementContext, element, "a rest element must be T[]");
      restItems = convert(items, elementContext);
      continue;
    }
    if (type.type === "TSNamedTupleMember") {
      optional = field(type, "optional") === true;
      type = inner(type, "elementType");
    }
    if (type.type === "TSOptionalType") optional = true;
    prefixItems.push(convert(type, elementContext));
    if (!optional) minItems = prefixItems.length;
  }
  if (restItems !== undefined) return { type: "array", prefixItems, minItems, items: restItems };
  return { type: "array", prefixItems, minItems, maxItems: prefixItems.length, items: false };
}

function propertyName(member: AstNode): string | undefined {
  if (field(member, "computed") === true) return undefined;
  const key = nodeField(member, "key");
  if (key?.type === "Identifier") return field(key, "name") as string;
  if (key?.type === "StringLiteral" || key?.type === "NumericLiteral") {
    return String(field(key, "value"));
  }
  return undefined;
}

function annotationOf(node: AstNode): AstNode | undefined {
  const annotation = nodeField(node, "typeAnnotation");
  return annotation === undefined ? undefined : nodeField(annotation, "typeAnnotation");
}

function objectType(members: AstNode[], context: Context): SchemaObject {
  const properties: Record<string, SchemaObject> = {};
  const required: string[] = [];
  let additional: SchemaObject | false = false;
  for (const member of members) {
    if (member.type === "TSIndexSignature") {
      const key = nodeList(member, "parameters")[0];
      const keyType = key === undefined ? undefined : annotationOf(key);
      const valueType = annotationOf(member);
      if (keyType?.type !== "TSStringKeyword" || valueType === undefined) {
        return reject(context, member, "only [key: string]: T index signatures are supported");
      }
      additional = convert(valueType, at(context, "*"));
      continue;
    }
    const name = member.type === "TSPropertySignature" ? propertyName(member) : undefined;
    if (name === undefined) {
      return reject(context, member, "only named properties with JSON types are supported");
    }
    const type = annotationOf(member);
    if (type === undefined) return reject(at(context, name), member, "the property has no type");
    Object.defineProperty(properties, name, {
      value: convert(type, at(context, name)),
      enumerable: true,
      writable: true,
      configurable: true,
    });
    if (field(member, "optional") !== true) required.push(name);
  }
  const schema: SchemaObject = { type: "object", properties };
  if (required.length > 0) schema["required"] = required;
  schema["additionalProperties"] = additional;
  return schema;
}

function typeArguments(node: AstNode): AstNode[] {
  const instantiation = nodeField(node, "typeParameters") ?? nodeField(node, "typeArguments");
  return instantiation === undefined ? [] : nodeList(instantiation, "params");
}

function reference(node: AstNode, context: Context): SchemaObject {
  const typeName = inner(node, "typeName");
  if (typeName.type !== "Identifier") {
    return reject(context, node, "qualified type names are not supported");
  }
  const name = field(typeName, "name") as string;
  const args = typeArguments(node);
  const declaration = context.scope.declarations.get(name);
  if (name === integerAlias && args.length === 0) {
    // The alias must really be `number` when the script declares it, so editors agree with us.
    if (declaration !== undefined) {
      const aliased = nodeField(declaration, "typeAnnotation");
      if (declaration.type !== "TSTypeAliasDeclaration" || aliased?.type !== "TSNumberKeyword") {
        return reject(
          context,
          node,
          "the integer alias is reserved; declare it as `type integer = number`",
        );
      }
    }
    return { type: "integer" };
  }
  if (declaration !== undefined) return declared(name, declaration, node, context);
  const kind = context.scope.classes.get(name);
  if (kind !== undefined) {
    return reject(
      context,
      node,
      `'${name}' is ${kind === "class" ? "a class" : "an enum"}; JSON values lose class identity`,
    );
  }
  if ((name === "Array" || name === "ReadonlyArray") && args.length === 1) {
    return { type: "array", items: convert(args[0] as AstNode, at(context, "[]")) };
  }
  if (name === "Readonly" && args.length === 1) return convert(args[0] as AstNode, context);
  if (name === "Record" && args.length === 2) return record(node, args, context);
  const reason = notJson[name];
  if (reason !== undefined) return reject(context, node, reason);
  return reject(
    context,
    node,
    `'${name}' is not a JSON type this derivation knows (classes and unknown types are rejected)`,
  );
}

function record(node: AstNode, args: AstNode[], context: Context): SchemaObject {
  const [keyType, valueType] = args as [AstNode, AstNode];
  if (keyType.type === "TSStringKeyword") {
    return { type: "object", additionalProperties: convert(valueType, at(context, "*")) };
  }
  const keys = flattenUnion(keyType);
  if (keys.every((key) => key.type === "TSLiteralType")) {
    const names = keys.map((key) => literalValue(key, context));
    if (names.every((key) => typeof key === "string")) {
      const properties: Record<string, SchemaObject> = {};
      for (const key of names) {
        Object.defineProperty(properties, key, {
          value: convert(valueType, at(context, key)),
          enumerable: true,
          writable: true,
          configurable: true,
        });
      }
      return { type: "object", properties, required: names, additionalProperties: false };
    }
  }
  return reject(context, node, "Record keys must be string or a union of string literals");
}

function declared(
  name: string,
  declaration: AstNode,
  node: AstNode,
  context: Context,
): SchemaObject {
  if (context.resolving.includes(name)) {
    return reject(context, node, `'${name}' refers to itself; recursive types are not supported`);
  }
  if (nodeField(declaration, "typeParameters") !== undefined) {
    return reject(context, node, `'${name}' is generic; generic local types are not supported`);
  }
  const nested = { ...context, resolving: [...context.resolving, name] };
  if (declaration.type === "TSTypeAliasDeclaration") {
    return convert(inner(declaration, "typeAnnotation"), nested);
  }
  if (nodeList(declaration, "extends").length > 0) {
    return reject(context, node, `interface '${name}' extends another; write its properties out`);
  }
  return objectType(nodeList(inner(declaration, "body"), "body"), nested);
}
