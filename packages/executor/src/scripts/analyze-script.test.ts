import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { analyzeScript, deriveParametersSchema, isEntryPointScript } from "./analyze-script.ts";
import { NoMainFunctionError } from "./no-main-function-error.ts";
import { ScriptSyntaxError } from "./script-syntax-error.ts";
import { UnsupportedParameterTypeError } from "./unsupported-parameter-type-error.ts";

const ajv = new Ajv2020({ strict: true, strictTuples: false, allErrors: true });

/** Schema of `main(<params>)`, checked to compile under strict Ajv 2020. */
function schemaOf(params: string, prelude = ""): Record<string, unknown> {
  const schema = deriveParametersSchema(`${prelude}\nfunction main(${params}) {}`);
  ajv.compile(schema);
  return schema;
}

/** The property schema of parameter `x`. */
function paramSchema(type: string, prelude = ""): unknown {
  return (schemaOf(`x: ${type}`, prelude)["properties"] as Record<string, unknown>)["x"];
}

function accepts(type: string, value: unknown, prelude = ""): boolean {
  return ajv.validate(schemaOf(`x: ${type}`, prelude), { x: value });
}

function rejection(params: string, prelude = ""): UnsupportedParameterTypeError {
  try {
    schemaOf(params, prelude);
  } catch (error) {
    expect(error).toBeInstanceOf(UnsupportedParameterTypeError);
    return error as UnsupportedParameterTypeError;
  }
  throw new Error(`main(${params}) was accepted`);
}

describe("deriveParametersSchema: primitive types", () => {
  it("maps number, string and boolean", () => {
    expect(paramSchema("number")).toEqual({ type: "number" });
    expect(paramSchema("string")).toEqual({ type: "string" });
    expect(paramSchema("boolean")).toEqual({ type: "boolean" });
    expect(accepts("number", 2.5)).toBe(true);
    expect(accepts("number", "2.5")).toBe(false);
    expect(accepts("string", 1)).toBe(false);
    expect(accepts("boolean", 0)).toBe(false);
  });

  it("reads the integer alias, declared or not", () => {
    expect(paramSchema("integer")).toEqual({ type: "integer" });
    expect(paramSchema("integer", "type integer = number;")).toEqual({ type: "integer" });
    expect(accepts("integer", 3)).toBe(true);
    expect(accepts("integer", 3.5)).toBe(false);
  });

  it("rejects an integer alias declared as something other than number", () => {
    expect(rejection("x: integer", "type integer = string;").message).toContain(
      "type integer = number",
    );
  });

  it("emits the JSON Schema 2020-12 dialect and closes the object", () => {
    const schema = schemaOf("a: number");
    expect(schema["$schema"]).toBe("https://json-schema.org/draft/2020-12/schema");
    expect(schema["type"]).toBe("object");
    expect(schema["additionalProperties"]).toBe(false);
  });
});

describe("deriveParametersSchema: literals and unions", () => {
  it("turns string and number literal unions into enums", () => {
    expect(paramSchema('"x" | "y" | "z"')).toEqual({ enum: ["x", "y", "z"] });
    expect(paramSchema("1 | 2 | -3")).toEqual({ enum: [1, 2, -3] });
    expect(paramSchema('"a" | 1 | true')).toEqual({ enum: ["a", 1, true] });
    expect(accepts('"x" | "y"', "y")).toBe(true);
    expect(accepts('"x" | "y"', "w")).toBe(false);
  });

  it("turns a single literal into const", () => {
    expect(paramSchema('"only"')).toEqual({ const: "only" });
    expect(accepts('"only"', "other")).toBe(false);
  });

  it("keeps other unions as anyOf", () => {
    expect(paramSchema("number | string")).toEqual({
      anyOf: [{ type: "number" }, { type: "string" }],
    });
    expect(accepts("number | string", true)).toBe(false);
  });

  it("rejects template literal types with substitutions and bigint literals", () => {
    expect(rejection(`x: \`a$\{string}\``).parameter).toBe("x");
    expect(rejection("x: 1n").message).toContain("bigint");
  });
});

describe("deriveParametersSchema: nullable and optional", () => {
  it("widens a nullable type with null", () => {
    expect(paramSchema("number | null")).toEqual({ type: ["number", "null"] });
    expect(paramSchema('"a" | "b" | null')).toEqual({ enum: ["a", "b", null] });
    expect(paramSchema("(number | string) | null")).toEqual({
      anyOf: [{ type: "number" }, { type: "string" }, { type: "null" }],
    });
    expect(paramSchema("{ a: number } | null")).toMatchObject({ type: ["object", "null"] });
    expect(accepts("number | null", null)).toBe(true);
    expect(accepts("number", null)).toBe(false);
  });

  it("makes a parameter required exactly when it has no default and no ?", () => {
    const schema = schemaOf(
      "a: number, b: number | null, c: number | null = null, d?: string, e: string = 'x'",
    );
    expect(schema["required"]).toEqual(["a", "b"]);
    expect(ajv.validate(schema, { b: null })).toBe(false);
    expect(ajv.validate(schema, { a: 1, b: null })).toBe(true);
  });

  it("omits required when nothing is required", () => {
    expect(schemaOf("d?: string")["required"]).toBeUndefined();
    expect(schemaOf("")).toMatchObject({ properties: {}, additionalProperties: false });
  });

  it("rejects undefined, void and `| undefined`", () => {
    expect(rejection("x: undefined").message).toContain("optional (?)");
    expect(rejection("x: void").parameter).toBe("x");
    expect(rejection("x: number | undefined").parameter).toBe("x");
  });
});

describe("deriveParametersSchema: arrays and tuples", () => {
  it("maps T[], Array<T>, ReadonlyArray<T> and readonly T[]", () => {
    const expected = { type: "array", items: { type: "number" } };
    expect(paramSchema("number[]")).toEqual(expected);
    expect(paramSchema("Array<number>")).toEqual(expected);
    expect(paramSchema("ReadonlyArray<number>")).toEqual(expected);
    expect(paramSchema("readonly number[]")).toEqual(expected);
    expect(accepts("number[]", [1, 2])).toBe(true);
    expect(accepts("number[]", [1, "2"])).toBe(false);
  });

  it("maps fixed tuples with prefixItems, both lengths and no extra items", () => {
    expect(paramSchema("[number, string]")).toEqual({
      type: "array",
      prefixItems: [{ type: "number" }, { type: "string" }],
      minItems: 2,
      maxItems: 2,
      items: false,
    });
    expect(accepts("[number, string]", [1, "a"])).toBe(true);
    expect(accepts("[number, string]", [1])).toBe(false);
    expect(accepts("[number, string]", [1, "a", 3])).toBe(false);
    expect(accepts("[number, string]", ["a", 1])).toBe(false);
  });

  it("counts optional and named tuple members", () => {
    expect(paramSchema("[x: number, y?: number]")).toMatchObject({ minItems: 1, maxItems: 2 });
    expect(paramSchema("[number, string?]")).toMatchObject({ minItems: 1, maxItems: 2 });
    expect(accepts("[number, number?]", [1])).toBe(true);
  });

  it("maps a rest element to items", () => {
    expect(paramSchema("[string, ...number[]]")).toEqual({
      type: "array",
      prefixItems: [{ type: "string" }],
      minItems: 1,
      items: { type: "number" },
    });
    expect(accepts("[string, ...number[]]", ["a", 1, 2])).toBe(true);
    expect(accepts("[string, ...number[]]", ["a", "b"])).toBe(false);
  });
});

describe("deriveParametersSchema: objects and records", () => {
  it("maps object type literals with required from ? and no extra properties", () => {
    expect(paramSchema("{ name: string; size?: number; 'odd key': boolean }")).toEqual({
      type: "object",
      properties: {
        name: { type: "string" },
        size: { type: "number" },
        "odd key": { type: "boolean" },
      },
      required: ["name", "odd key"],
      additionalProperties: false,
    });
    const type = "{ name: string; size?: number }";
    expect(accepts(type, { name: "a" })).toBe(true);
    expect(accepts(type, { size: 1 })).toBe(false);
    expect(accepts(type, { name: "a", extra: 1 })).toBe(false);
  });

  it("maps Record<string, T> and string index signatures", () => {
    const expected = { type: "object", additionalProperties: { type: "number" } };
    expect(paramSchema("Record<string, number>")).toEqual(expected);
    expect(paramSchema("{ [key: string]: number }")).toEqual({ ...expected, properties: {} });
    expect(accepts("Record<string, number>", { a: 1 })).toBe(true);
    expect(accepts("Record<string, number>", { a: "1" })).toBe(false);
  });

  it("maps Record over string literal keys to required properties", () => {
    expect(paramSchema('Record<"x" | "y", number>')).toEqual({
      type: "object",
      properties: { x: { type: "number" }, y: { type: "number" } },
      required: ["x", "y"],
      additionalProperties: false,
    });
  });

  it("rejects number-keyed records, methods and untyped properties", () => {
    expect(rejection("x: Record<number, string>").message).toContain("Record keys");
    expect(rejection("x: { run(): void }").parameter).toBe("x");
    expect(rejection("x: { [key: number]: string }").parameter).toBe("x");
    expect(rejection("x: { a }").message).toContain("x.a");
  });

  it("names the nested path of an unsupported type", () => {
    const error = rejection("opts: { when: { at: Date } }");
    expect(error.parameter).toBe("opts");
    expect(error.message).toContain("opts.when.at");
    expect(error.message).toContain("Date");
  });

  it("resolves local type aliases and interfaces", () => {
    const prelude = 'type Axis = "x" | "y"; interface Point { x: number; y?: number }';
    expect(schemaOf("axis: Axis, at: Point", prelude)["properties"]).toEqual({
      axis: { enum: ["x", "y"] },
      at: {
        type: "object",
        properties: { x: { type: "number" }, y: { type: "number" } },
        required: ["x"],
        additionalProperties: false,
      },
    });
  });

  it("rejects recursive, generic and extending local types", () => {
    expect(rejection("x: Tree", "type Tree = { children: Tree[] };").message).toContain(
      "recursive",
    );
    expect(rejection("x: Box", "type Box<T> = { v: T };").message).toContain("generic");
    expect(
      rejection("x: B", "interface A { a: number } interface B extends A { b: number }").message,
    ).toContain("extends");
  });
});

describe("deriveParametersSchema: types without a faithful JSON form", () => {
  const cases: [string, string, string][] = [
    ["when", "Date", "Date"],
    ["lookup", "Map<string, number>", "Map"],
    ["tags", "Set<string>", "Set"],
    ["big", "bigint", "bigint"],
    ["callback", "() => void", "functions"],
    ["fn", "Function", "functions"],
    ["anything", "any", "concrete"],
    ["mystery", "unknown", "concrete"],
    ["loose", "object", "Object"],
    ["sym", "symbol", "symbol"],
    ["pending", "Promise<number>", "promises"],
    ["both", "{ a: number } & { b: number }", "not supported"],
    ["ref", "Foo", "not a JSON type"],
    ["qualified", "NS.Foo", "qualified"],
  ];
  for (const [name, type, reason] of cases) {
    it(`rejects ${type}, naming the parameter`, () => {
      const error = rejection(`${name}: ${type}`);
      expect(error.code).toBe("UNSUPPORTED_PARAMETER_TYPE");
      expect(error.parameter).toBe(name);
      expect(error.message).toContain(`'${name}'`);
      expect(error.message).toContain(reason);
    });
  }

  it("rejects classes and enums declared in the script", () => {
    expect(rejection("x: Thing", "class Thing {}").message).toContain("a class");
    expect(rejection("x: Color", "enum Color { Red }").message).toContain("an enum");
  });
});

describe("deriveParametersSchema: defaults", () => {
  it("turns literal defaults into default", () => {
    const properties = schemaOf(
      "a: number = -1.5, b: string = `t`, c: boolean = false, d: number[] = [1, 2], e: { k: string } = { k: 'v' }, f: number | null = null",
    )["properties"];
    expect(properties).toEqual({
      a: { type: "number", default: -1.5 },
      b: { type: "string", default: "t" },
      c: { type: "boolean", default: false },
      d: { type: "array", items: { type: "number" }, default: [1, 2] },
      e: {
        type: "object",
        properties: { k: { type: "string" } },
        required: ["k"],
        additionalProperties: false,
        default: { k: "v" },
      },
      f: { type: ["number", "null"], default: null },
    });
  });

  it("keeps a computed default optional without stating a value", () => {
    const schema = schemaOf("a: number = Math.PI * 2");
    expect(schema["properties"]).toEqual({ a: { type: "number" } });
    expect(schema["required"]).toBeUndefined();
  });

  it("rejects a default that does not match its type", () => {
    expect(rejection("copies: integer = 1.5").message).toContain("default 1.5");
    expect(rejection('axis: "x" | "y" = "z"').parameter).toBe("axis");
  });
});

describe("analyzeScript: parameters", () => {
  it("treats leading-underscore names like any other", () => {
    const schema = schemaOf("_private: number, __dunder?: string");
    expect(schema["properties"]).toEqual({
      _private: { type: "number" },
      __dunder: { type: "string" },
    });
    expect(schema["required"]).toEqual(["_private"]);
  });

  it("rejects untyped parameters, naming them, even with a default", () => {
    expect(rejection("scale").message).toBe(
      "Parameter 'scale' of main: it has no type annotation; declare one, e.g. `scale: number`",
    );
    expect(rejection("a: number, copies = 1").parameter).toBe("copies");
  });

  it("rejects destructured and rest parameters by position", () => {
    expect(rejection("{ a }: { a: number }").parameter).toBe("#1");
    expect(rejection("a: number, ...rest: number[]").parameter).toBe("#2");
    expect(rejection("a: number, [b]: number[]").parameter).toBe("#2");
  });

  it("reads JSDoc summary and @param descriptions", () => {
    const schema = deriveParametersSchema(
      "/**\n * Scales the selection.\n * @param scale - how much\n * @param {integer} [copies=1] how many\n */\nfunction main(scale: number, copies: integer = 1) {}",
    );
    expect(schema["description"]).toBe("Scales the selection.");
    expect(schema["properties"]).toEqual({
      scale: { type: "number", description: "how much" },
      copies: { type: "integer", default: 1, description: "how many" },
    });
  });

  it("lists parameters in order with their requiredness", () => {
    const analysis = analyzeScript("async function main(a: number, b: number = 1, c?: string) {}");
    expect(analysis.async).toBe(true);
    expect(analysis.parameters).toEqual([
      { name: "a", required: true },
      { name: "b", required: false },
      { name: "c", required: false },
    ]);
  });
});

describe("analyzeScript: main and the top level", () => {
  it("accepts function main and async function main", () => {
    expect(analyzeScript("function main(a: number) { return a }").callable).toBe(true);
    expect(analyzeScript("async function main() { await 1 }").callable).toBe(true);
  });

  it("reports no main for a plain script", () => {
    const analysis = analyzeScript("const x = dispatch('ls', {}); return x;");
    expect(analysis).toMatchObject({ hasMain: false, parametersSchema: null, callable: false });
    expect(analysis.hasTopLevelReturn).toBe(true);
    expect(() => deriveParametersSchema("return 1")).toThrow(NoMainFunctionError);
  });

  it("ignores main declared inside a block or another function", () => {
    expect(analyzeScript("{ function helper() { function main() {} } }").hasMain).toBe(false);
  });

  it("sees a top-level return and a top-level call of main, not ones inside functions", () => {
    expect(analyzeScript("function main() { return 1 }").hasTopLevelReturn).toBe(false);
    expect(analyzeScript("function main() {}\nif (true) { return 2 }").hasTopLevelReturn).toBe(
      true,
    );
    expect(analyzeScript("function main() {}\nmain();").callsMainAtTopLevel).toBe(true);
    expect(analyzeScript("function main() {}\nawait main.call(null);").callable).toBe(false);
    expect(analyzeScript("function main() {}\nconst f = () => main();").callable).toBe(true);
  });

  for (const [code, detail] of [
    ["const main = (a: number) => a;", "not as a variable"],
    ["class main {}", "not as a variable"],
    ["function main(a: number): void;\nfunction main(a: number) {}", "overloaded"],
    ["function main() {}\nfunction main() {}", "2 times"],
    ["function* main() {}", "generator"],
  ] as const) {
    it(`rejects ${code.split("\n")[0]}`, () => {
      expect(() => analyzeScript(code)).toThrow(NoMainFunctionError);
      expect(() => analyzeScript(code)).toThrow(detail);
    });
  }

  it("refuses module syntax, which the sandbox does not run", () => {
    expect(() => analyzeScript("export function main() {}")).toThrow(ScriptSyntaxError);
  });

  it("reports a syntax error with its position", () => {
    try {
      analyzeScript("const a = 1;\nfunction main(x: number {\n}");
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ScriptSyntaxError);
      expect((error as ScriptSyntaxError).line).toBe(2);
      expect((error as ScriptSyntaxError).code).toBe("SCRIPT_SYNTAX_ERROR");
    }
  });
});

describe("isEntryPointScript", () => {
  it("is true for a main without a top-level return or call", () => {
    expect(isEntryPointScript("function main(a: number) { return a }")).toBe(true);
    expect(isEntryPointScript("const k = 2;\nasync function main(when: Date) {}")).toBe(true);
  });

  it("is false for plain scripts, scripts that run main themselves, and bad code", () => {
    expect(isEntryPointScript("return 1")).toBe(false);
    expect(isEntryPointScript("function main() {}\nreturn main()")).toBe(false);
    expect(isEntryPointScript("function main() {}\nmain()")).toBe(false);
    expect(isEntryPointScript("const main = () => 1;")).toBe(false);
    expect(isEntryPointScript("function main( {")).toBe(false);
  });
});
