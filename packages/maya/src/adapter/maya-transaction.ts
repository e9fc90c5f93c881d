import type { DccTransaction, DccTransactionReport } from "@dcc/executor";
import type { MayaScene } from "../scene/maya-scene.ts";

/**
 * A script's transaction on the simulated scene, as Maya does it: an undo chunk named after the
 * call is opened before the script's first command (`undoInfo -openChunk -chunkName`); `commit`
 * closes it, so the script undoes in one `undo`; `rollback` closes it and undoes it. A file
 * new/open or undo turned off during the script flushes Maya's undo queue: the chunk then no
 * longer reaches back to the start (`history_cut`). Scene files saved are listed, not undone.
 */
export function beginMayaTransaction(scene: MayaScene, label: string): DccTransaction {
  const flushes = scene.undoFlushes;
  const filesWritten: string[] = [];
  const previous = scene.onFileWritten;
  scene.onFileWritten = (name) => {
    if (!filesWritten.includes(name)) filesWritten.push(name);
    previous?.(name);
  };
  scene.openChunk(label);
  let ended = false;

  /** Closes the chunk once: whether the queue was flushed, and whether it made an undo step. */
  const close = (): { cut: boolean; step: boolean } => {
    ended = true;
    scene.onFileWritten = previous;
    const cut = scene.undoFlushes !== flushes;
    return { cut, step: !cut && scene.closeChunk() };
  };
  const files = (): Pick<DccTransactionReport, "filesWritten"> =>
    filesWritten.length === 0 ? {} : { filesWritten: [...filesWritten] };
  const cutText =
    "a file new/open (or undo turned off) during the script flushed Maya's undo queue";

  /** The report when nothing can be undone: the queue was cut, or the script changed nothing. */
  const notUndoable = (cut: boolean): DccTransactionReport =>
    cut
      ? { rolledBack: false, reason: "history_cut", detail: cutText, ...files() }
      : {
          rolledBack: false,
          reason: "nothing_to_undo",
          detail: "the script changed nothing undoable",
          ...files(),
        };
  const end = async (rollback: boolean): Promise<DccTransactionReport> => {
    if (ended)
      return { rolledBack: false, reason: "failed", detail: "the transaction already ended" };
    const { cut, step } = close();
    if (!step) return notUndoable(cut);
    if (!rollback) return { rolledBack: false, undoStep: label, ...files() };
    scene.undo();
    return { rolledBack: true, ...files() };
  };
  return { commit: () => end(false), rollback: () => end(true) };
}
