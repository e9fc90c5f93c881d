import type { DccTransaction, DccTransactionReport } from "@dcc/executor";
import type { MayaScene } from "../scene/maya-scene.ts";
import { SceneError, SceneErrorCode } from "../scene/scene-error.ts";

/**
 * A script's transaction on the simulated scene, as Maya does it, owning the undo queue between
 * its begin and its end. It runs the script's commands ({@link MayaTransaction.execute}).
 */
export interface MayaTransaction extends DccTransaction {
  /**
   * Runs one command of the script: `undo`, `redo` and `undoInfo` are kept within the script's
   * own part of the undo queue; every other command runs as it is.
   * @throws {SceneError} `INVALID_STATE` for an undo or redo once the script changed the scene,
   *   or an `undoInfo -closeChunk` that would close the script's own chunk.
   */
  execute(name: string, args: unknown): unknown;
}

/**
 * Begins a script's transaction: an undo chunk named after the call is opened before the script's
 * first command (`undoInfo -openChunk -chunkName`); `commit` closes it, so a script that changed
 * something undoes in one `undo`, and one that changed nothing leaves no undo step. Before its
 * first change a script may `undo` and `redo` freely (an undo script takes back the script before
 * it; the chunk is closed around each); after it, undo and redo are refused, as is closing the
 * chunk. `rollback` closes the chunk, undoes it and reverses the script's undos and redos, and
 * says `rolledBack: true` only when the queue is back where it stood. A file new/open or undo
 * turned off during the script flushes Maya's undo queue (`history_cut`). Scene files saved are
 * listed, not undone.
 */
export function beginMayaTransaction(scene: MayaScene, label: string): MayaTransaction {
  const flushes = scene.undoFlushes;
  const filesWritten: string[] = [];
  const previous = scene.onFileWritten;
  scene.onFileWritten = (name) => {
    if (!filesWritten.includes(name)) filesWritten.push(name);
    previous?.(name);
  };
  const start = { names: scene.undoNames(), sizes: scene.queueSizes() };
  scene.openChunk(label);
  let ended = false;
  /** Steps undone (positive) or redone (negative) by the script before its first change. */
  let walked = 0;
  /** Chunks the script opened inside its own and has not closed. */
  let nested = 0;

  const refuse = (command: string, message: string): never => {
    throw new SceneError({ code: SceneErrorCode.invalidState, command, message });
  };
  /** Undoes or redoes with the script's chunk closed around it (it holds nothing yet). */
  const walk = (command: "undo" | "redo"): unknown => {
    if (scene.chunkChanged) {
      refuse(
        command,
        `${command}: this script has changed the scene, and its changes become one undo step only when it ends; ${command} in a script before it changes anything (an undo script), not after`,
      );
    }
    for (let depth = 0; depth <= nested; depth++) scene.closeChunk();
    const name = command === "undo" ? scene.undo() : scene.redo();
    scene.openChunk(label);
    for (let depth = 0; depth < nested; depth++) scene.openChunk(label);
    if (name !== undefined) walked += command === "undo" ? 1 : -1;
    return name ?? null;
  };

  const execute = (name: string, args: unknown): unknown => {
    if (ended || scene.undoFlushes !== flushes) return scene.execute(name, args);
    if (name === "undo" || name === "redo") return walk(name);
    if (name === "undoInfo" && isObject(args)) {
      if (args["openChunk"] === true || args["ock"] === true) nested++;
      if (args["closeChunk"] === true || args["cck"] === true) {
        if (nested === 0) {
          refuse(
            name,
            "undoInfo closeChunk would close this script's own undo chunk (the transaction closes it when the script ends); close only the chunks the script opened",
          );
        }
        nested--;
      }
    }
    return scene.execute(name, args);
  };

  /** Closes the chunk (and any the script left open) once. */
  const close = (): { cut: boolean; step: boolean } => {
    ended = true;
    scene.onFileWritten = previous;
    const cut = scene.undoFlushes !== flushes;
    if (cut) return { cut, step: false };
    let step = false;
    for (let depth = 0; depth <= nested; depth++) step = scene.closeChunk() || step;
    return { cut, step };
  };
  const files = (): Pick<DccTransactionReport, "filesWritten"> =>
    filesWritten.length === 0 ? {} : { filesWritten: [...filesWritten] };
  const cutText =
    "a file new/open (or undo turned off) during the script flushed Maya's undo queue";
  const unchanged = (): DccTransactionReport => ({
    rolledBack: false,
    reason: "nothing_to_undo",
    detail:
      walked === 0
        ? "the script changed nothing undoable"
        : `the script ${walked > 0 ? "undid" : "redid"} ${Math.abs(walked)} earlier step(s) and changed nothing else: no undo step of its own`,
    ...files(),
  });
  /**
   * Undoes the script's undos and redos; true when the undo queue stands where it did at begin
   * (and the redo queue too, when the script changed nothing: a change discards the redo queue,
   * as every Maya command does).
   */
  const unwalk = (step: boolean): boolean => {
    for (; walked > 0 && scene.redo() !== undefined; walked--);
    for (; walked < 0 && scene.undo() !== undefined; walked++);
    const names = scene.undoNames();
    const sizes = scene.queueSizes();
    const redoBack = step || (names.redo === start.names.redo && sizes.redo === start.sizes.redo);
    return (
      walked === 0 && names.undo === start.names.undo && sizes.undo === start.sizes.undo && redoBack
    );
  };

  const end = async (rollback: boolean): Promise<DccTransactionReport> => {
    if (ended)
      return { rolledBack: false, reason: "failed", detail: "the transaction already ended" };
    const { cut, step } = close();
    if (cut) return { rolledBack: false, reason: "history_cut", detail: cutText, ...files() };
    if (!rollback) return step ? { rolledBack: false, undoStep: label, ...files() } : unchanged();
    if (!step && walked === 0) return unchanged();
    if (step) scene.undo();
    if (step && walked !== 0) {
      // The script's change after its undos or redos discarded the redo queue (Maya's rule):
      // the steps it walked over cannot be walked back.
      return {
        rolledBack: false,
        reason: "history_cut",
        detail: `the script's changes were undone, but it had ${walked > 0 ? "undone" : "redone"} ${Math.abs(walked)} earlier step(s) first, and its changes discarded Maya's redo queue`,
        ...files(),
      };
    }
    if (!unwalk(step)) {
      return {
        rolledBack: false,
        reason: "failed",
        detail: "the undo queue did not return to where it stood when the script began",
        ...files(),
      };
    }
    return { rolledBack: true, ...files() };
  };
  return { commit: () => end(false), rollback: () => end(true), execute };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
