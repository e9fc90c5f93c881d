import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, extname, isAbsolute, relative, resolve } from "node:path";
import { attributeTable } from "./attribute-table.ts";
import { SceneError, SceneErrorCode } from "./scene-error.ts";
import type { SceneState } from "./scene-state.ts";

const format = "dcc-reference-server/maya-scene";

function fileError(message: string, cause?: unknown): SceneError {
  return cause === undefined
    ? new SceneError({ code: SceneErrorCode.fileError, message })
    : new SceneError({ code: SceneErrorCode.fileError, message, cause });
}

/**
 * Resolves a scene file name inside the data folder. Names without an extension get `.json`.
 * Anything that would land outside the folder (`..`, another absolute path) is rejected.
 */
export function resolveScenePath(
  dataDir: string | undefined,
  name: string,
): { path: string; name: string } {
  if (dataDir === undefined) {
    throw fileError("Scene files are disabled: the server was started without a data folder.");
  }
  if (name.trim() === "" || name.includes("\0"))
    throw fileError(`Invalid scene file name: '${name}'`);
  const root = resolve(dataDir);
  const withExtension = extname(name) === "" ? `${name}.json` : name;
  const path = resolve(root, withExtension);
  const inside = relative(root, path);
  if (inside === "" || inside.startsWith("..") || isAbsolute(inside)) {
    throw fileError(`Scene file '${name}' is outside the data folder; use a path relative to it.`);
  }
  return { path, name: inside.split("\\").join("/") };
}

/** Writes a scene state as JSON. */
export function writeSceneFile(path: string, state: SceneState): void {
  try {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, `${JSON.stringify({ format, version: 1, state }, null, 1)}\n`);
  } catch (error) {
    throw fileError(`Could not save the scene: ${(error as Error).message}`, error);
  }
}

/** Reads a scene state written by {@link writeSceneFile}. */
export function readSceneFile(path: string, name: string): SceneState {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    throw fileError(`File not found: ${name}`, error);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw fileError(`File is not a scene saved by this server: ${name}`, error);
  }
  const record = parsed as { format?: unknown; state?: SceneState };
  if (record.format !== format || typeof record.state?.nodes !== "object") {
    throw fileError(`File is not a scene saved by this server: ${name}`);
  }
  // Files are data from disk: rebuild attribute tables without prototypes, as live ones are.
  for (const node of Object.values(record.state.nodes)) {
    node.attributes = attributeTable(node.attributes);
  }
  return record.state;
}
