// Babel, sucrase and ajv take most of the time of importing this package, and a plain `execute`
// needs none of them in the calling thread. They are CommonJS, so `require` loads them on first
// use and synchronously: the APIs that need them (`analyzeScript`, `ToolRegistry.register`)
// stay synchronous and keep throwing where they did.
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);

/** A getter that loads the CommonJS module `specifier` on its first call and then reuses it. */
export function loadOnFirstUse<Module>(specifier: string): () => Module {
  let loaded: Module | undefined;
  return () => {
    loaded ??= require(specifier) as Module;
    return loaded;
  };
}
