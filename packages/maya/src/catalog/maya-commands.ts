import { readFileSync } from "node:fs";
import type { MayaCommandRecord } from "./maya-command-record.ts";

// Read with fs rather than imported: a composite tsc project cannot import JSON outside its
// include list, and typing a 1 MB literal would slow every type check. The build copies the
// file next to the compiled module (scripts/copy-catalog-data.mjs), so this URL works from
// src under vitest and from dist alike.
const dataUrl = new URL("./maya-commands.generated.json", import.meta.url);

let commands: readonly MayaCommandRecord[] | undefined;

/**
 * Every command of the reference Maya catalog (1,469), generated at build time from the
 * `maya.cmds` type stubs and this package's hand-written descriptions by
 * `scripts/generate-catalog.mjs`. Read on first call, then cached; frozen; in the stubs' order.
 */
export function mayaCommands(): readonly MayaCommandRecord[] {
  commands ??= Object.freeze(
    (JSON.parse(readFileSync(dataUrl, "utf8")) as MayaCommandRecord[]).map((record) =>
      Object.freeze({ ...record, flags: Object.freeze([...record.flags]) }),
    ),
  );
  return commands;
}
