// Prototype pollution through host commands, checked in-process so a regression cannot wedge the
// HTTP stack the battery runs on (the battery makes the same attempts over MCP).
import { DccApiExecutor, ToolDispatcher, ToolRegistry } from "@dcc/executor";
import { createMayaAdapter } from "@dcc/maya";
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

describe("prototype pollution through host commands", () => {
  // Found by the battery: the scene's attribute tables were plain objects, so setAttr on
  // `node.__proto__` wrote `value` onto the host's Object.prototype (and `constructor` onto
  // Object), after which the MCP server stopped answering. Fixed in 18e584b.
  it("setAttr, addAttr and getAttr on __proto__, constructor and toString attributes leave the host's built-ins alone", async () => {
    const result = await executor.execute(
      [
        "dispatch('polySphere', { name: 'victim' });",
        "for (const name of ['__proto__', 'constructor', 'toString', 'hasOwnProperty']) {",
        "  const plug = 'victim.' + name;",
        "  try { dispatch('setAttr', { args: [plug, 1] }); } catch {}",
        "  try { dispatch('addAttr', { args: ['victim'], longName: name, attributeType: 'double' }); } catch {}",
        "  try { dispatch('setAttr', { args: [plug, 2] }); } catch {}",
        "  try { dispatch('getAttr', { args: [plug] }); } catch {}",
        "}",
        "return 'tried';",
      ].join("\n"),
      { timeoutSecs: 60 },
    );
    const after = snapshot();
    restoreBuiltins();
    expect(result.success).toBe(true);
    expect(after).toEqual(clean);
  });
});
