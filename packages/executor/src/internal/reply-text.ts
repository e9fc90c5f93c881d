// The JSON text a guest's `dispatch` receives: `{"ok":true,"value":…}` or
// `{"ok":false,"error":{command,code,message,completion,data?}}`.
import { commandErrorCodes } from "../command-error-code.ts";
import type { ExecuteCompletion } from "../execute-result.ts";

const bigintAsString = (_key: string, item: unknown): unknown =>
  typeof item === "bigint" ? String(item) : item;

/** The reply for a command that returned nothing (the guest compares with this exact text). */
const nullValueReply = JSON.stringify({ ok: true, value: null });

/** The reply for a command that returned `value`. */
export function valueReply(command: string, value: unknown): string {
  if (value === null || value === undefined) return nullValueReply;
  // JSON.stringify drops a top-level function or symbol without an error; the script would
  // silently receive undefined, so these are refused like any other non-JSON value.
  if (typeof value === "function" || typeof value === "symbol") {
    return errorReply(
      command,
      commandErrorCodes.invalidResult,
      `${command} returned a value that is not JSON-representable: a ${typeof value}`,
    );
  }
  const reply = { ok: true, value };
  try {
    // Without a replacer first: it is much faster, and only a BigInt (or a real error) throws.
    return JSON.stringify(reply);
  } catch {
    // Retried below with BigInts as strings.
  }
  try {
    return JSON.stringify(reply, bigintAsString);
  } catch (error) {
    return errorReply(
      command,
      commandErrorCodes.invalidResult,
      `${command} returned a value that is not JSON-representable: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}

/** What an error reply says beyond its code and message. */
export interface ErrorFacts {
  completion?: ExecuteCompletion;
  data?: unknown;
}

/** The reply for a command that failed with `code`. */
export function errorReply(
  command: string,
  code: string,
  message: string,
  facts: ErrorFacts = {},
): string {
  const error = { command, code, message, completion: facts.completion ?? "complete" };
  if (facts.data !== undefined) {
    try {
      return JSON.stringify({ ok: false, error: { ...error, data: facts.data } });
    } catch {
      // Data that is not JSON (a BigInt, a cycle) is left out rather than losing the error.
    }
  }
  return JSON.stringify({ ok: false, error });
}
