import { type AstNode, childNodes, field, nodeField } from "./ast.ts";

const functionLike = new Set([
  "FunctionDeclaration",
  "FunctionExpression",
  "ArrowFunctionExpression",
  "ObjectMethod",
  "ClassMethod",
  "ClassPrivateMethod",
  "TSDeclareFunction",
  "TSDeclareMethod",
]);

/** What the top level of a script does, outside any function body. */
export interface TopLevelFacts {
  /** A `return` statement runs at the top level. */
  hasReturn: boolean;
  /** The top level calls `main` itself (`main(...)`, `main.call(...)`, `new main()`). */
  callsMain: boolean;
}

/** Walks every statement of `body` without entering function bodies. */
export function topLevelFacts(body: readonly AstNode[]): TopLevelFacts {
  const facts: TopLevelFacts = { hasReturn: false, callsMain: false };
  const pending: AstNode[] = [...body];
  while (pending.length > 0) {
    const node = pending.pop() as AstNode;
    if (functionLike.has(node.type)) continue;
    if (node.type === "ReturnStatement") facts.hasReturn = true;
    if (
      (node.type === "CallExpression" ||
        node.type === "OptionalCallExpression" ||
        node.type === "NewExpression") &&
      refersToMain(nodeField(node, "callee"))
    ) {
      facts.callsMain = true;
    }
    pending.push(...childNodes(node));
  }
  return facts;
}

function refersToMain(callee: AstNode | undefined): boolean {
  if (callee === undefined) return false;
  if (callee.type === "Identifier") return field(callee, "name") === "main";
  if (callee.type === "MemberExpression" || callee.type === "OptionalMemberExpression") {
    return refersToMain(nodeField(callee, "object"));
  }
  if (callee.type === "ParenthesizedExpression" || callee.type === "TSNonNullExpression") {
    return refersToMain(nodeField(callee, "expression"));
  }
  return false;
}
