"""Whether the open scene has changes its file does not hold, for the ``open`` approval rule
(``blender.file_state``).

``bpy.data.is_dirty`` cannot tell it under ``blender -b``: operators and data writes made from
Python there never mark the file changed, while every undo push does (the transaction's own
"before" step included, which changes nothing). So the host keeps its own mark: set by every
command that may change the scene (as the transaction judges it, history moves included),
cleared by a load (``load_post``) and by a save of the open file (not a copy), and put back as
it was when a script is rolled back. With a window, where Blender's own mark is kept as the
person works, either one counts.
"""

from __future__ import annotations

from typing import Any, Dict

import bpy
from bpy.app.handlers import persistent

_unsaved = [False]
# Set by a load during the current command: the scene is then the loaded file's.
_loaded = [False]

# Saves that make the open file hold the scene (unless `copy`).
_SAVES = frozenset({"wm.save_mainfile", "wm.save_as_mainfile"})
# Errors raised before the command touched anything (as the transaction lists them).
_NOT_STARTED = frozenset({"INVALID_ARGS", "INVALID_PATH", "INVALID_VALUE", "NOT_FOUND", "POLICY", "POLL_FAILED", "READ_ONLY"})


@persistent
def dcc_blender_unsaved_loaded(*_args) -> None:
    _unsaved[0] = False
    _loaded[0] = True


def install_load_handler() -> None:
    handlers = bpy.app.handlers.load_post
    if not any(getattr(h, "__name__", "") == "dcc_blender_unsaved_loaded" for h in handlers):
        handlers.append(dcc_blender_unsaved_loaded)


def remove_load_handler() -> None:
    """Removes the handler ``install_load_handler`` added (add-on unregister)."""
    handlers = bpy.app.handlers.load_post
    for existing in list(handlers):
        if getattr(existing, "__name__", "") == "dcc_blender_unsaved_loaded":
            handlers.remove(existing)


def value() -> bool:
    """The host's own mark (see the module's text)."""
    return _unsaved[0]


def restore(previous: bool) -> None:
    """Puts the mark back as it was (a rolled-back script)."""
    _unsaved[0] = previous


def before_command() -> None:
    """Called before each command."""
    _loaded[0] = False


def after_command(method: str, params: Any, error: Any, changes_scene: bool) -> None:
    """Called after each command: ``changes_scene`` is the transaction's judgement of it."""
    loaded, _loaded[0] = _loaded[0], False
    code = getattr(error, "code", None)
    if code in _NOT_STARTED:
        return
    operator = params.get("operator") if method == "blender.op" and isinstance(params, dict) else None
    if operator in _SAVES:
        args = params.get("args") or {}
        if error is None and not (isinstance(args, dict) and args.get("copy")):
            _unsaved[0] = False
        return
    if method == "blender.recovery.open":
        # A restored copy holds changes its own file never had.
        if error is None:
            _unsaved[0] = True
        return
    if loaded:
        return  # a file (or the factory scene) was loaded: the scene is that file's
    if changes_scene or operator in ("ed.undo", "ed.redo", "ed.undo_history"):
        _unsaved[0] = True


def file_state(params: Dict[str, Any], call, policy) -> Dict[str, Any]:
    """``blender.file_state``: the open file's path ("" when never saved) and whether the scene
    has changes it does not hold."""
    unsaved = _unsaved[0] or (not bpy.app.background and bool(bpy.data.is_dirty))
    return {"filepath": bpy.data.filepath, "unsaved": unsaved}
