// Labelled bearer tokens from a file (`--tokens-file`, `DCC_MCP_TOKENS_FILE`) or the environment
// (`DCC_MCP_TOKENS`). Errors name the line or entry, never the token: they are printed on stderr
// and may end up in a log.
import { readFileSync } from "node:fs";
import type { LabelledToken } from "@dcc/mcp-bridge";

/** A bad tokens file or variable; the message names where, never a token's text. */
export class TokensFileError extends Error {
  override readonly name: string = "TokensFileError";
}

const labelPattern = /^[A-Za-z0-9_.@-]{1,64}$/;

/**
 * Reads a tokens file: one `label token` per line, `#` comments and blank lines allowed.
 * @throws {@link TokensFileError} when the file cannot be read or a line is malformed, too short
 *   or repeats a label or token.
 */
export function readTokensFile(path: string): LabelledToken[] {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    throw new TokensFileError(
      `Cannot read the tokens file ${path}: ${(error as NodeJS.ErrnoException).code ?? "error"}`,
    );
  }
  const entries: Array<{ where: string; label: string; token: string }> = [];
  text.split(/\r?\n/).forEach((raw, index) => {
    const line = raw.trim();
    if (line === "" || line.startsWith("#")) return;
    const where = `${path} line ${index + 1}`;
    const fields = line.split(/\s+/);
    if (fields.length !== 2) {
      throw new TokensFileError(`${where}: expected "label token" (${fields.length} fields)`);
    }
    entries.push({ where, label: fields[0] as string, token: fields[1] as string });
  });
  if (entries.length === 0) throw new TokensFileError(`The tokens file ${path} holds no token`);
  return checked(entries);
}

/**
 * Reads `DCC_MCP_TOKENS`: `label=token` pairs separated by commas or white space.
 * @throws {@link TokensFileError} for a pair without `=`, or the problems of {@link readTokensFile}.
 */
export function parseTokensVariable(text: string): LabelledToken[] {
  const entries = text
    .split(/[\s,]+/)
    .filter((pair) => pair !== "")
    .map((pair, index) => {
      const where = `DCC_MCP_TOKENS entry ${index + 1}`;
      const equals = pair.indexOf("=");
      if (equals <= 0) throw new TokensFileError(`${where}: expected label=token`);
      return { where, label: pair.slice(0, equals), token: pair.slice(equals + 1) };
    });
  if (entries.length === 0) throw new TokensFileError("DCC_MCP_TOKENS holds no token");
  return checked(entries);
}

function checked(entries: Array<{ where: string; label: string; token: string }>): LabelledToken[] {
  const labels = new Map<string, string>();
  const tokens = new Map<string, string>();
  for (const { where, label, token } of entries) {
    if (!labelPattern.test(label)) {
      throw new TokensFileError(
        `${where}: the label must be 1-64 letters, digits, "_", "-", "." or "@"`,
      );
    }
    if (token.length < 16) {
      throw new TokensFileError(`${where} (label ${label}): the token must be 16+ characters`);
    }
    const sameLabel = labels.get(label);
    if (sameLabel !== undefined) {
      throw new TokensFileError(`${where}: the label ${label} is already used at ${sameLabel}`);
    }
    const sameToken = tokens.get(token);
    if (sameToken !== undefined) {
      throw new TokensFileError(`${where} (label ${label}): the same token as ${sameToken}`);
    }
    labels.set(label, where);
    tokens.set(token, `${where} (label ${label})`);
  }
  return entries.map(({ label, token }) => ({ label, token }));
}
