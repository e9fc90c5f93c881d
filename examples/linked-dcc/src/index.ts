/**
 * `@dcc/example-linked`: an example adapter package for a tiny DCC-like Python program behind
 * `@dcc/link`, built on `@dcc/linked-adapter`, and `src/serve.ts`, a short app that serves it.
 */
export type { TinyAdapterOptions } from "./tiny-adapter.ts";
export { createTinyAdapter } from "./tiny-adapter.ts";
