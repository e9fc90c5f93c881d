/**
 * `@dcc/mcp-test-clients`: a private test helper (tooling, outside the layers). Connects the
 * official MCP client of either protocol revision behind one interface.
 */
export type {
  CallOptions,
  ClientFeatures,
  ClientTarget,
  ElicitAnswer,
  ElicitParams,
  ListedTool,
  Revision,
  TestClient,
  ToolResult,
} from "./connect-client.ts";
export { connectClient, revisions } from "./connect-client.ts";
