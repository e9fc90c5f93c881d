"""A script's transaction on Blender's own undo stack (see ``DccTransaction`` in @dcc/executor).

``blender.txn.begin`` pushes an undo step holding the scene as it is before the script's first
command; ``blender.txn.end`` pushes one step named after the call holding the script's changes
(operators called from Python push none of their own), then, to roll back, undoes it. This works
under ``blender -b`` and in a window, where the person's Ctrl-Z takes the whole script back.
Files written (saves, renders, exports) are listed, never undone. A file opened or the factory
scene read during the script resets Blender's undo history: that is reported, not undone."""

from __future__ import annotations

from typing import Any, Dict, List, Optional

import bpy
from bpy.app.handlers import persistent

_open: Optional[Dict[str, Any]] = None
# True while the active undo step holds the scene as it is (after a transaction ended): the next
# begin then pushes no step of its own, so an ed.undo in the next script undoes the last script.
_clean = False


def note_files(result: Any) -> None:
    """Notes the files a command's result says it wrote."""
    if _open is None or not isinstance(result, dict):
        return
    files = result.get("files")
    if isinstance(files, list):
        for name in files:
            if isinstance(name, str) and name not in _open["files"]:
                _open["files"].append(name)


@persistent
def dcc_blender_transaction_loaded(*_args) -> None:
    global _clean
    _clean = False
    if _open is not None:
        _open["loaded"] = True


def _install_load_handler() -> None:
    handlers = bpy.app.handlers.load_post
    if not any(getattr(h, "__name__", "") == "dcc_blender_transaction_loaded" for h in handlers):
        handlers.append(dcc_blender_transaction_loaded)


def begin(params, call, policy):
    global _open
    label = str(params.get("label") or "dcc script").replace("\n", " ")[:80]
    _install_load_handler()
    if not _clean:
        bpy.ops.ed.undo_push(message=f"before {label}")
    _open = {"label": label, "files": [], "loaded": False}
    return {}


def end(params, call, policy):
    global _open, _clean
    state, _open = _open, None
    _clean = False
    if state is None:
        return {"rolledBack": False, "reason": "failed", "detail": "no transaction was open"}
    files: List[str] = state["files"]
    extra = {"filesWritten": files} if files else {}
    if state["loaded"]:
        return {
            "rolledBack": False,
            "reason": "history_cut",
            "detail": "a file was opened (or the scene reset) during the script; Blender's undo history starts there",
            **extra,
        }
    bpy.ops.ed.undo_push(message=state["label"])
    _clean = True
    if not params.get("rollback"):
        return {"rolledBack": False, "undoStep": state["label"], **extra}
    if "FINISHED" not in bpy.ops.ed.undo():
        return {"rolledBack": False, "reason": "nothing_to_undo", "detail": "ed.undo did not run", **extra}
    return {"rolledBack": True, **extra}
