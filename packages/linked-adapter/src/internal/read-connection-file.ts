import { readFile } from "node:fs/promises";

/** A plug-in's connection file, checked. */
export interface ConnectionInfo {
  socket: string;
  token: string;
  pid: number | undefined;
}

/** Reads and checks a connection file (`{ socket, token, pid? }`). */
export async function readConnectionFile(
  path: string,
  displayName: string,
): Promise<ConnectionInfo> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readFile(path, "utf8"));
  } catch (error) {
    throw new Error(
      `Cannot read the ${displayName} connection file ${path}: ${(error as Error).message}. Start ${displayName} with its DCC Link plug-in enabled; it prints where it wrote the file.`,
      { cause: error },
    );
  }
  const info = parsed as Partial<Record<string, unknown>> | null;
  if (
    info === null ||
    typeof info !== "object" ||
    typeof info["socket"] !== "string" ||
    typeof info["token"] !== "string"
  ) {
    throw new Error(
      `The ${displayName} connection file ${path} has no "socket" and "token" strings`,
    );
  }
  return {
    socket: info["socket"],
    token: info["token"],
    pid: typeof info["pid"] === "number" ? info["pid"] : undefined,
  };
}
