/**
 * The few Babel AST shapes the script analysis reads. `@babel/types` is not a dependency of this
 * package, so these are narrow structural views checked by `type` at each use.
 */

/** Any Babel node. */
export interface AstNode {
  type: string;
  start?: number | null;
  end?: number | null;
  leadingComments?: readonly { type: string; value: string }[] | null;
}

export interface IdentifierNode extends AstNode {
  type: "Identifier";
  name: string;
  optional?: boolean | null;
  typeAnnotation?: { type: string; typeAnnotation: AstNode } | null;
}

export interface FunctionNode extends AstNode {
  id?: IdentifierNode | null;
  params: AstNode[];
  async: boolean;
  generator: boolean;
}

/** Child nodes of `node`, skipping positions and comments. */
export function childNodes(node: AstNode): AstNode[] {
  const children: AstNode[] = [];
  for (const [key, value] of Object.entries(node)) {
    if (key === "loc" || key === "extra" || key.endsWith("Comments")) continue;
    if (Array.isArray(value)) {
      for (const item of value) if (isNode(item)) children.push(item);
    } else if (isNode(value)) {
      children.push(value);
    }
  }
  return children;
}

/** True for a Babel node. */
export function isNode(value: unknown): value is AstNode {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as { type?: unknown }).type === "string"
  );
}

/** The property `key` of `node`, untyped; callers check what they read. */
export function field(node: AstNode, key: string): unknown {
  return (node as unknown as Record<string, unknown>)[key];
}

/** The property `key` of `node` when it is a node. */
export function nodeField(node: AstNode, key: string): AstNode | undefined {
  const value = field(node, key);
  return isNode(value) ? value : undefined;
}

/** The property `key` of `node` as a list of nodes. */
export function nodeList(node: AstNode, key: string): AstNode[] {
  const value = field(node, key);
  return Array.isArray(value) ? value.filter(isNode) : [];
}

/** The source text of `node`. */
export function sourceText(source: string, node: AstNode): string {
  return source.slice(node.start ?? 0, node.end ?? source.length);
}
