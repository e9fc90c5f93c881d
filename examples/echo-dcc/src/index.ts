/**
 * `@dcc/example-echo`: an example adapter package for a small in-memory "echo DCC", written
 * against the published `@dcc` surfaces only, and `src/serve.ts`, a short app that serves it.
 */
export type { EchoAdapter } from "./echo-adapter.ts";
export { createEchoAdapter } from "./echo-adapter.ts";
