import { DccMcpError } from "@dcc/cancel";
import type { CommandRecord } from "@dcc/catalog";
import type { Ajv, ValidateFunction } from "ajv";
import type { CommandDefinition } from "./command-definition.ts";
import { loadOnFirstUse } from "./internal/load-on-first-use.ts";

const ajvModule = loadOnFirstUse<typeof import("ajv")>("ajv");

interface Registered {
  definition: CommandDefinition;
  validate: ValidateFunction | undefined;
}

/**
 * The host commands one DCC exposes to scripts. Argument schemas are compiled with ajv when a
 * command is registered, so a bad schema fails early; {@link ToolRegistry.catalogRecords} feeds a
 * `DccApiCatalog`.
 */
export class ToolRegistry {
  #commands = new Map<string, Registered>();
  #ajv: Ajv | undefined;

  /**
   * Adds one command.
   * @throws {DccMcpError} code `INVALID_COMMAND` for an empty name, a missing handler, a bad
   *   schema or a `readOnly` that is not a boolean; `DUPLICATE_COMMAND` if the name is taken.
   */
  register(definition: CommandDefinition): this {
    const { name } = definition;
    if (typeof name !== "string" || name.trim() === "") {
      throw new DccMcpError({
        code: "INVALID_COMMAND",
        message: "A command needs a non-empty name",
      });
    }
    if (typeof definition.handler !== "function") {
      throw new DccMcpError({ code: "INVALID_COMMAND", message: `Command ${name} has no handler` });
    }
    if (definition.readOnly !== undefined && typeof definition.readOnly !== "boolean") {
      throw new DccMcpError({
        code: "INVALID_COMMAND",
        message: `readOnly of command ${name} must be true or false, not ${String(definition.readOnly)}`,
      });
    }
    if (this.#commands.has(name)) {
      throw new DccMcpError({
        code: "DUPLICATE_COMMAND",
        message: `Command ${name} is already registered`,
      });
    }
    let validate: ValidateFunction | undefined;
    if (definition.argsSchema !== undefined) {
      try {
        this.#ajv ??= new (ajvModule().Ajv)({ allErrors: false, strict: false });
        validate = this.#ajv.compile(definition.argsSchema);
      } catch (error) {
        throw new DccMcpError({
          code: "INVALID_COMMAND",
          message: `Command ${name} has an invalid argsSchema: ${error instanceof Error ? error.message : String(error)}`,
          cause: error,
        });
      }
    }
    this.#commands.set(name, { definition, validate });
    return this;
  }

  /** Adds several commands; see {@link ToolRegistry.register}. */
  registerAll(definitions: Iterable<CommandDefinition>): this {
    for (const definition of definitions) this.register(definition);
    return this;
  }

  /** The command registered under `name`, if any. */
  get(name: string): CommandDefinition | undefined {
    return this.#commands.get(name)?.definition;
  }

  /** Whether a command is registered under `name`. */
  has(name: string): boolean {
    return this.#commands.has(name);
  }

  /** Number of registered commands. */
  get size(): number {
    return this.#commands.size;
  }

  /** Registered names, in registration order. */
  names(): string[] {
    return [...this.#commands.keys()];
  }

  /**
   * Checks `args` against the command's schema. Returns `null` when they are valid (or the
   * command has no schema), else a readable list of problems.
   */
  validateArgs(name: string, args: unknown): string[] | null {
    const validate = this.#commands.get(name)?.validate;
    if (validate === undefined || validate(args)) return null;
    return (validate.errors ?? []).map(
      (error) =>
        `${error.instancePath === "" ? "args" : `args${error.instancePath}`} ${error.message ?? "is invalid"}`,
    );
  }

  /** One catalog record (`name`, `signature?`, `description?`) per command, in order. */
  catalogRecords(): CommandRecord[] {
    return [...this.#commands.values()].map(({ definition }) => {
      const record: CommandRecord = { name: definition.name };
      if (definition.signature !== undefined) record.signature = definition.signature;
      if (definition.description !== undefined) record.description = definition.description;
      return record;
    });
  }
}
