import { existsSync, readdirSync, statSync } from "node:fs";
import type { SceneCommandSpec } from "../command-spec.ts";
import type { MayaScene } from "../maya-scene.ts";
import { invalidArgument, invalidState } from "../scene-error.ts";
import { readSceneFile, resolveScenePath, writeSceneFile } from "../scene-files.ts";
import { emptySceneState } from "../scene-graph.ts";

function assertSaved(scene: MayaScene, force: boolean): void {
  if (scene.modified && !force) {
    throw invalidState(
      "Unsaved changes. Save the scene first or pass force (f): true to discard them.",
    );
  }
}

const file: SceneCommandSpec<MayaScene> = {
  name: "file",
  summary:
    "Scene files as JSON in the server's data folder: new (with force (f) to drop unsaved changes), rename (rn) then save (s), open (o) a name; query (q) sceneName (sn), modified (mf), exists (ex), list (l).",
  positional: "fileName?: string",
  returns: "string | boolean | string[] | null",
  flags:
    "new force|f open|o save|s rename|rn:string type|typ:string sceneName|sn modified|mf exists|ex list|l",
  queryable: true,
  mutates: false,
  run(scene, call) {
    const { flags } = call;
    const force = flags["force"] === true;
    if (call.query) {
      if (flags["sceneName"]) return scene.sceneName;
      if (flags["modified"]) return scene.modified;
      if (flags["exists"]) {
        const { path } = resolveScenePath(scene.dataDir, String(call.args[0] ?? scene.sceneName));
        return existsSync(path) && statSync(path).isFile();
      }
      if (flags["list"]) {
        resolveScenePath(scene.dataDir, "probe");
        return readdirSync(scene.dataDir as string, { recursive: true })
          .map(String)
          .filter((name) => name.endsWith(".json"))
          .sort();
      }
      throw invalidArgument("file: say what to query, e.g. { query: true, sceneName: true }.");
    }
    if (flags["new"]) {
      assertSaved(scene, force);
      scene.replaceState(emptySceneState());
      scene.sceneName = "";
      scene.modified = false;
      return null;
    }
    if (typeof flags["rename"] === "string") {
      scene.sceneName = resolveScenePath(scene.dataDir, flags["rename"]).name;
      if (!flags["save"]) return scene.sceneName;
    }
    if (flags["save"]) {
      if (scene.sceneName === "")
        throw invalidState('file: The scene has no name yet; pass rename: "name.json" first.');
      const { path, name } = resolveScenePath(scene.dataDir, scene.sceneName);
      writeSceneFile(path, scene.graph.state);
      scene.modified = false;
      scene.onFileWritten?.(name);
      return name;
    }
    if (flags["open"]) {
      const target = call.args[0];
      if (typeof target !== "string")
        throw invalidArgument("file: open expects the file name in args.");
      assertSaved(scene, force);
      const { path, name } = resolveScenePath(scene.dataDir, target);
      scene.replaceState(readSceneFile(path, name));
      scene.sceneName = name;
      scene.modified = false;
      return name;
    }
    throw invalidArgument("file: the simulation supports new, rename, save, open and queries.");
  },
};

const undo: SceneCommandSpec<MayaScene> = {
  name: "undo",
  summary:
    "Undo the last scene change (or undo chunk); returns its name, or null when there is nothing to undo.",
  returns: "string | null",
  flags: "",
  mutates: false,
  run(scene) {
    return scene.undo() ?? null;
  },
};

const redo: SceneCommandSpec<MayaScene> = {
  name: "redo",
  summary: "Redo the last undone change; returns its name, or null when there is nothing to redo.",
  returns: "string | null",
  flags: "",
  mutates: false,
  run(scene) {
    return scene.redo() ?? null;
  },
};

const undoInfo: SceneCommandSpec<MayaScene> = {
  name: "undoInfo",
  summary:
    "Undo queue: openChunk (ock)/closeChunk (cck) group changes into one undo step; state (st) on/off; length (l); query (q) undoName (un), redoName (rn), undoQueueEmpty (uqe), redoQueueEmpty (rqe).",
  returns: "string | number | boolean | null",
  flags:
    "state|st:bool length|l:int infinity|infinity:bool openChunk|ock closeChunk|cck chunkName|cn:string undoName|un redoName|rn undoQueueEmpty|uqe redoQueueEmpty|rqe",
  queryable: true,
  mutates: false,
  run(scene, call) {
    const { flags } = call;
    if (call.query) {
      if (flags["state"]) return scene.undoEnabled;
      if (flags["length"]) return scene.undoLength;
      if (flags["infinity"]) return false;
      if (flags["undoName"]) return scene.undoNames().undo;
      if (flags["redoName"]) return scene.undoNames().redo;
      if (flags["undoQueueEmpty"]) return scene.queueSizes().undo === 0;
      if (flags["redoQueueEmpty"]) return scene.queueSizes().redo === 0;
      throw invalidArgument("undoInfo: say what to query, e.g. { query: true, undoName: true }.");
    }
    if (flags["openChunk"])
      scene.openChunk(typeof flags["chunkName"] === "string" ? flags["chunkName"] : "chunk");
    if (flags["closeChunk"]) scene.closeChunk();
    if (typeof flags["state"] === "boolean") scene.setUndoEnabled(flags["state"]);
    if (typeof flags["length"] === "number") {
      if (flags["length"] < 1) throw invalidArgument("undoInfo: length must be at least 1.");
      scene.undoLength = flags["length"];
    }
    return null;
  },
};

/** file, undo, redo, undoInfo. */
export const fileCommands: SceneCommandSpec<MayaScene>[] = [file, undo, redo, undoInfo];
