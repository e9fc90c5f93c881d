// Bugs found by the reliability suites in other packages, kept as failing tests (`it.fails`) until
// their owners fix them; each then starts to "fail" here and should become an ordinary test.
import { DccApiExecutor, ToolDispatcher, ToolRegistry } from "@dcc/executor";
import { createMayaAdapter } from "@dcc/reference-server";
import { afterAll, afterEach, describe, expect, it } from "vitest";

const snapshot = (): Record<string, string[]> => ({
  "Object.prototype": Object.getOwnPropertyNames(Object.prototype).sort(),
  Object: Object.getOwnPropertyNames(Object).sort(),
});
const clean = snapshot();

/** Removes whatever a failed attack added to the host's built-ins, so later tests are not hurt. */
function restoreBuiltins(): void {
  for (const name of Object.getOwnPropertyNames(Object.prototype)) {
    if (!clean["Object.prototype"]?.includes(name))
      delete (Object.prototype as Record<string, unknown>)[name];
  }
  for (const name of Object.getOwnPropertyNames(Object)) {
    if (!clean["Object"]?.includes(name))
      delete (Object as unknown as Record<string, unknown>)[name];
  }
}

const maya = createMayaAdapter();
const executor = new DccApiExecutor("maya", {
  catalog: maya.catalog(),
  dispatcher: new ToolDispatcher(new ToolRegistry().registerAll(maya.commands())),
});

afterEach(restoreBuiltins);
afterAll(() => executor.close());

describe("known bugs in other packages", () => {
  // apps/reference-server/src/scene/attributes.ts keeps a node's attributes in a plain object
  // (`node.attributes[name]`), so the attribute name `__proto__` resolves to the host's
  // Object.prototype and setAttr writes `value` onto it (and `constructor` writes Object.value).
  // After that every `Object.defineProperty(o, k, { get })` in the server process throws
  // "Invalid property descriptor" and the MCP server stops answering.
  it.fails("reference-server: setAttr on a __proto__ or constructor attribute leaves the host's built-ins alone", async () => {
    const result = await executor.execute(
      [
        "dispatch('polySphere', { name: 'victim' });",
        "for (const plug of ['victim.__proto__', 'victim.constructor']) {",
        "  try { dispatch('setAttr', { args: [plug, 1] }); } catch {}",
        "}",
        "return 'tried';",
      ].join("\n"),
      { timeoutSecs: 5 },
    );
    const after = snapshot();
    restoreBuiltins();
    expect(result.success).toBe(true);
    expect(after).toEqual(clean);
  });
});
