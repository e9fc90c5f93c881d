// The audit log from `--audit-log` (or `DCC_MCP_AUDIT_LOG`), with its script and rotation
// settings from flags or the environment.
import { resolve } from "node:path";
import type { ReferenceAuditOptions } from "../server/reference-audit.ts";

/** A bad audit setting. */
export class AuditArgumentError extends Error {
  override readonly name: string = "AuditArgumentError";
}

/**
 * The audit log settings, or undefined without `--audit-log` and `DCC_MCP_AUDIT_LOG`.
 * @throws {@link AuditArgumentError} for an empty path, a bad `DCC_MCP_AUDIT_SCRIPT`, or a size
 *   or file count that is not a whole number in range.
 */
export function auditArguments(
  values: {
    auditLog?: string | undefined;
    noScript?: boolean | undefined;
    maxBytes?: string | undefined;
    maxFiles?: string | undefined;
  },
  env: Readonly<Record<string, string | undefined>>,
  cwd: string,
): ReferenceAuditOptions | undefined {
  const file = values.auditLog ?? env["DCC_MCP_AUDIT_LOG"];
  if (file === undefined) return undefined;
  if (file.trim() === "") throw new AuditArgumentError("--audit-log needs a file");
  const scriptText = env["DCC_MCP_AUDIT_SCRIPT"];
  if (scriptText !== undefined && !["0", "1", "false", "true"].includes(scriptText)) {
    throw new AuditArgumentError(`DCC_MCP_AUDIT_SCRIPT must be 0 or 1, not ${scriptText}`);
  }
  const script = values.noScript === true ? false : !(scriptText === "0" || scriptText === "false");
  const maxBytes = whole("--audit-max-bytes", values.maxBytes ?? env["DCC_MCP_AUDIT_MAX_BYTES"], 0);
  const maxFiles = whole("--audit-max-files", values.maxFiles ?? env["DCC_MCP_AUDIT_MAX_FILES"], 2);
  return {
    file: resolve(cwd, file),
    script,
    ...(maxBytes === undefined ? {} : { maxBytes }),
    ...(maxFiles === undefined ? {} : { maxFiles }),
  };
}

function whole(flag: string, text: string | undefined, least: number): number | undefined {
  if (text === undefined) return undefined;
  const value = Number(text);
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(value) || value < least) {
    throw new AuditArgumentError(`${flag} must be a whole number, at least ${least}: ${text}`);
  }
  return value;
}
