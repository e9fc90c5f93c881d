import { type AstNode, field, nodeField, nodeList } from "./ast.ts";

/** Returned when an expression is not a JSON literal. */
export const notStatic: unique symbol = Symbol("notStatic");

/**
 * The JSON value of a literal expression (numbers, strings, booleans, null, negative numbers,
 * template strings without substitutions, and arrays or objects of those), or {@link notStatic}.
 * Only literals qualify: a default computed at call time has no value the schema could state.
 */
export function staticJsonValue(node: AstNode): unknown {
  switch (node.type) {
    case "StringLiteral":
    case "BooleanLiteral":
      return field(node, "value");
    case "NumericLiteral": {
      const value = field(node, "value");
      return typeof value === "number" && Number.isFinite(value) ? value : notStatic;
    }
    case "NullLiteral":
      return null;
    case "UnaryExpression": {
      const argument = nodeField(node, "argument");
      const operator = field(node, "operator");
      if (argument?.type !== "NumericLiteral" || (operator !== "-" && operator !== "+")) {
        return notStatic;
      }
      const value = field(argument, "value") as number;
      return operator === "-" ? -value : value;
    }
    case "TemplateLiteral": {
      if (nodeList(node, "expressions").length > 0) return notStatic;
      const quasi = nodeList(node, "quasis")[0];
      const cooked =
        quasi === undefined ? undefined : (field(quasi, "value") as { cooked?: unknown });
      return typeof cooked?.cooked === "string" ? cooked.cooked : notStatic;
    }
    case "TSAsExpression":
    case "TSSatisfiesExpression":
    case "TSNonNullExpression":
    case "ParenthesizedExpression": {
      const inner = nodeField(node, "expression");
      return inner === undefined ? notStatic : staticJsonValue(inner);
    }
    case "ArrayExpression":
      return staticArray(node);
    case "ObjectExpression":
      return staticObject(node);
    default:
      return notStatic;
  }
}

function staticArray(node: AstNode): unknown {
  const elements = field(node, "elements") as (AstNode | null)[];
  const values: unknown[] = [];
  for (const element of elements) {
    if (element === null) return notStatic;
    const value = staticJsonValue(element);
    if (value === notStatic) return notStatic;
    values.push(value);
  }
  return values;
}

function staticObject(node: AstNode): unknown {
  const result: Record<string, unknown> = {};
  for (const property of nodeList(node, "properties")) {
    if (property.type !== "ObjectProperty" || field(property, "computed") === true) {
      return notStatic;
    }
    const key = nodeField(property, "key");
    const name =
      key?.type === "Identifier"
        ? field(key, "name")
        : key?.type === "StringLiteral" || key?.type === "NumericLiteral"
          ? String(field(key, "value"))
          : undefined;
    // `__proto__: x` sets the prototype in a literal rather than a key: not a JSON object.
    if (typeof name !== "string" || name === "__proto__") return notStatic;
    const valueNode = nodeField(property, "value");
    const value = valueNode === undefined ? notStatic : staticJsonValue(valueNode);
    if (value === notStatic) return notStatic;
    Object.defineProperty(result, name, {
      value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return result;
}
