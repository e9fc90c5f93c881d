// dispatch from the guest to host commands, through DccApiExecutor.execute.
import { afterAll, describe, expect, it } from "vitest";
import {
  executor,
  failed,
  maxRunning,
  pool,
  resetMaxRunning,
} from "../__fixtures__/executor-under-test.ts";
import { DccApiExecutor } from "../dcc-api-executor.ts";

afterAll(() => pool.close());

describe("DccApiExecutor.execute: dispatch", () => {
  it("returns the command's value with or without await", async () => {
    const result = await executor.execute(
      'const a = dispatch("add", { a: 1, b: 2 });\nconst b = await dispatch("add", { a, b: 3 });\nreturn { a, b, e: dispatch("echo", [1, "x"]) };',
    );
    expect(result).toMatchObject({ success: true, output: { a: 3, b: 6, e: [1, "x"] } });
    expect(result.stats.dispatchCalls).toBe(3);
    expect(result.stats.commands).toEqual({ add: 2, echo: 1 });
  });

  it("gathers the change reports commands return, bounded, and passes over other values", async () => {
    const plain = await executor.execute('dispatch("add", { a: 1, b: 2 }); return 1');
    expect(plain.stats.changes).toBeUndefined();
    const result = await executor.execute(
      'dispatch("echo", { result: ["FINISHED"], created: [{ type: "Mesh", name: "Cube", path: \'meshes["Cube"]\' }, { type: "Object", name: "Cube" }], removed: [], more: { created: 3 } });\n' +
        'dispatch("echo", { removed: [{ type: "Light", name: "Sun", path: \'lights["Sun"]\' }], created: "not a list" });\n' +
        'for (let i = 0; i < 60; i++) dispatch("echo", { created: ["n" + i] });\nreturn 1',
    );
    expect(result.success).toBe(true);
    const changes = result.stats.changes;
    expect(changes?.created.slice(0, 3)).toEqual(['meshes["Cube"]', "Object Cube", "n0"]);
    expect(changes?.created).toHaveLength(50);
    expect(changes?.removed).toEqual(['lights["Sun"]']);
    // 3 the first command cut, 12 past the bound of 50.
    expect(changes?.more).toEqual({ created: 15 });
  });

  it("counts commands by name, bounded: names past the first 200 count as (other)", async () => {
    const none = await executor.execute("return 1");
    expect(none.stats.commands).toBeUndefined();
    // Unknown names are refused by the dispatcher but were still asked for.
    const many = await executor.execute(
      'for (let i = 0; i < 205; i++) { try { dispatch("made.up." + i, {}) } catch {} }\n' +
        'try { dispatch("x".repeat(129), {}) } catch {}\ndispatch("add", { a: 1, b: 1 }); return 1',
    );
    expect(many.success).toBe(true);
    const commands = many.stats.commands ?? {};
    expect(Object.keys(commands)).toHaveLength(201);
    expect(commands["made.up.0"]).toBe(1);
    expect(commands["made.up.199"]).toBe(1);
    expect(commands["made.up.200"]).toBeUndefined();
    // 5 names past the bound, the over-long one, and add (first called after the bound).
    expect(commands["(other)"]).toBe(7);
    expect(many.stats.dispatchCalls).toBe(207);
  });

  it("throws a catchable error carrying command, code and message", async () => {
    const result = await executor.execute(
      'try { dispatch("fail", {}) } catch (e) { return { name: e.name, command: e.command, code: e.code, message: e.message, isError: e instanceof Error } }',
    );
    expect(result).toMatchObject({
      output: {
        name: "CommandError",
        command: "fail",
        code: "NO_OBJECT",
        message: "No object matches name: foo",
        isError: true,
      },
    });
  });

  it("tells the script whether the failed command ran, and what its handler attached", async () => {
    const script =
      "const facts = (name, args) => { try { dispatch(name, args) } catch (e) { return { code: e.code, completion: e.completion, hasData: 'data' in e, data: e.data } } };\n" +
      'return [facts("fail", {}), facts("refuse", {}), facts("refuse", { bigint: true }), facts("ad", {}), facts("add", { a: "1" }), facts("lost", {})]';
    const result = await executor.execute(script);
    expect(result).toMatchObject({
      success: true,
      output: [
        { code: "NO_OBJECT", completion: "complete", hasData: false },
        { code: "POLICY", completion: "not_started", data: { rule: "run-python" } },
        // Handler data that is not JSON is left out; the error itself still arrives.
        { code: "POLICY", completion: "not_started", hasData: false },
        { code: "UNKNOWN_COMMAND", completion: "not_started" },
        { code: "INVALID_ARGS", completion: "not_started" },
        { code: "HOST_GONE", completion: "unknown" },
      ],
    });
  });

  it("suggests close names for an unknown command and validates arguments", async () => {
    const unknown = await executor.execute(
      'try { dispatch("ad", {}) } catch (e) { return [e.code, e.message] }',
    );
    expect(unknown).toMatchObject({ output: ["UNKNOWN_COMMAND", expect.stringContaining("add")] });
    const invalid = await executor.execute(
      'try { dispatch("add", { a: "1" }) } catch (e) { return e.code }',
    );
    expect(invalid).toMatchObject({ output: "INVALID_ARGS" });
  });

  it("fails the script when a command error is not caught", async () => {
    const result = failed(await executor.execute('dispatch("fail", {})'));
    expect(result.errorCode).toBe("SCRIPT_ERROR");
    // The text names the command's code and the command, not only its message.
    expect(result.error).toMatch(
      /^CommandError \(NO_OBJECT, from fail\): No object matches name: foo\n\s+at /,
    );
    // A huge unknown name is cut in the label, so the message stays near the front.
    const huge = failed(await executor.execute(`dispatch("${"x".repeat(50_000)}", {})`));
    expect(huge.error).toMatch(
      /^CommandError \(UNKNOWN_COMMAND, from x{60}… \(50000 characters\)\): Unknown command: x/,
    );
  });

  it("passes arguments as inert JSON data", async () => {
    const result = await executor.execute(
      'return dispatch("echo", JSON.parse(\'{"__proto__": {"admin": true}, "n": 1}\'))',
    );
    expect(result).toMatchObject({ success: true });
    expect(({} as { admin?: boolean }).admin).toBeUndefined();
    const bigint = failed(await executor.execute('return dispatch("echo", { n: 1n })'));
    expect(bigint.error).toMatch(/TypeError/);
  });

  it("returns small and large answers intact, whatever their characters", async () => {
    // Small answers cross through shared memory, large ones through the reply port.
    const text = 'añ😀\u0000"\\';
    for (const size of [1, 1000, 40_000]) {
      const result = await executor.execute(
        `const s = dispatch("echo", [${JSON.stringify(text)}.repeat(${size})])[0];\nreturn [s.length, s.slice(0, 7), dispatch("add", { a: 1, b: 2 })]`,
      );
      expect(result).toMatchObject({ success: true, output: [text.length * size, text, 3] });
    }
  });

  it("makes a command's result JSON, or fails the call", async () => {
    expect(await executor.execute('return dispatch("bigint")')).toMatchObject({
      output: { n: "12" },
    });
    expect(
      await executor.execute('try { dispatch("cyclic") } catch (e) { return e.code }'),
    ).toMatchObject({ output: "INVALID_RESULT" });
    for (const command of ["function", "symbol"]) {
      expect(
        await executor.execute(
          `try { dispatch("${command}"); return "no error" } catch (e) { return [e.code, e.message] }`,
        ),
      ).toMatchObject({
        output: [
          "INVALID_RESULT",
          `${command} returned a value that is not JSON-representable: a ${command}`,
        ],
      });
    }
  });

  it("runs host commands one at a time across concurrent executions", async () => {
    resetMaxRunning();
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, index) =>
        executor.execute(
          `let sum = 0; for (let i = 0; i < 5; i++) sum += dispatch("tick", ${index} * 100 + i); return sum`,
        ),
      ),
    );
    expect(results.map((result) => (result.success ? result.output : result.error))).toEqual(
      Array.from({ length: 6 }, (_, index) => index * 500 + 10),
    );
    expect(maxRunning).toBe(1);
  });

  it("fails dispatch without a dispatcher", async () => {
    const bare = new DccApiExecutor("blender", { pool: executor.pool });
    const result = await bare.execute('try { dispatch("x") } catch (e) { return e.code }');
    expect(result).toMatchObject({ output: "NO_DISPATCHER" });
  });
});
