"""A script's transaction on Blender's own undo stack (see ``DccTransaction`` in @dcc/executor).

The transaction owns the undo history between its begin and its end:

- ``blender.txn.begin`` records the active undo step (pushing one first only when the scene
  changed since the last step: a fresh Blender, a file load, a command run outside a script).
- While the script has changed nothing, ``ed.undo``, ``ed.redo`` and ``ed.undo_history`` walk
  the history freely (an undo script takes back the script before it). Once it has changed
  something, they stay within its own work: an undo that would go past the step its own changes
  started from is refused. ``ed.undo`` with changes not yet in a step takes back those changes.
  A step the script pushes (``ed.undo_push``) is its own, but a push that would cut the redo
  history of earlier work is refused.
- ``blender.txn.end`` commits one step named after the call when the script changed something,
  none for a script that only read, captured, or walked the history. A rollback jumps back to the
  step recorded at begin, whatever the script did to the history (no push, so the redo history
  of earlier work stays), and reports ``rolledBack: true`` only once the stack says so.

Per command the bookkeeping is a set lookup; the stack is read (a few dozen lines, never the
scene) at begin, end and around the undo commands only. Files written are listed, never undone.
A file opened or the factory scene read during the script resets the history: that is reported,
not undone. The end report carries the script's net change report (see ``scene_changes``).
"""

from __future__ import annotations

import re
from typing import Any, Dict, List, Optional

import bpy
from bpy.app.handlers import persistent
from dcc_link import HandlerError

from . import undo_stack, unsaved
from .scene_changes import Ledger

INVALID_STATE = "INVALID_STATE"

_open: Optional[Dict[str, Any]] = None
# True while the active undo step holds the scene as it is: the next begin pushes nothing, so an
# ed.undo in the next script undoes the last script.
_clean = False
# Steps pushed by scripts that were rolled back: left as redo steps, but no one's work to keep.
_dropped: set = set()

# Commands that never change the scene.
READS = frozenset(
    {
        "ping",
        "data.get",
        "data.list",
        "data.describe",
        "viewport.screenshot",
        # A recovery copy is a save of a copy (the open file stays the current one), and the
        # operator listings read RNA: neither leaves the active undo step behind the scene.
        "blender.recovery.save",
        "blender.operators.list",
        "blender.operators.describe",
        "blender.vocabulary",
        "blender.file_state",
        "bench.echo",
        "bench.stamps",
        "bench.undo",
        "bench.save",
        "bench.profile",
        # An evaluation: derived data only, nothing the undo step holds.
        "bench.settle",
    }
)
# Operators that write files and leave the scene alone (a save's file path is not undoable).
_WRITES_ONLY = re.compile(r"^(export_[a-z_]+\.[a-z_]+|wm\.[a-z_]+_export|render\.render|wm\.save_(as_)?mainfile)$")
_HISTORY = frozenset({"ed.undo", "ed.redo", "ed.undo_history"})
# Errors raised before the command touched anything.
_NOT_STARTED = frozenset({"INVALID_ARGS", "INVALID_PATH", "INVALID_VALUE", "NOT_FOUND", "POLICY", "POLL_FAILED", "READ_ONLY"})


def note_files(result: Any) -> None:
    """Notes the files a command's result says it wrote."""
    if _open is None or not isinstance(result, dict):
        return
    files = result.get("files")
    if isinstance(files, list):
        for name in files:
            if isinstance(name, str) and name not in _open["files"]:
                _open["files"].append(name)


def note_rename(old: str, new: str) -> None:
    """A data-block was renamed through ``data.set``."""
    if _open is not None:
        _open["ledger"].rename(old, new)


@persistent
def dcc_blender_transaction_loaded(*_args) -> None:
    global _clean
    _clean = False
    undo_stack.mark_loaded()
    if _open is not None:
        _open["loaded"] = True


def _install_load_handler() -> None:
    handlers = bpy.app.handlers.load_post
    if not any(getattr(h, "__name__", "") == "dcc_blender_transaction_loaded" for h in handlers):
        handlers.append(dcc_blender_transaction_loaded)


# ---- around each command ---------------------------------------------------------------------


def _operator(method: str, params: Any) -> Optional[str]:
    if method != "blender.op" or not isinstance(params, dict):
        return None
    operator = params.get("operator")
    return operator if isinstance(operator, str) else None


def changes_scene(method: str, params: Any) -> bool:
    """Whether a command may change the scene (conservative: unknown commands do)."""
    if method in READS:
        return False
    operator = _operator(method, params)
    if operator is not None and (operator in _HISTORY or operator == "ed.undo_push" or _WRITES_ONLY.match(operator)):
        return False
    return True


def before_command(method: str, params: Any) -> Optional[Dict[str, Any]]:
    """Called before each command: checks undo commands against the script's history (raising a
    HandlerError to refuse one), takes the names before the first change. Returns a result to
    answer instead of running the command, or None."""
    global _clean
    operator = _operator(method, params)
    state = _open
    if state is None:
        if changes_scene(method, params) or operator in _HISTORY or operator == "ed.undo_push":
            _clean = False  # run outside a script: the active step no longer holds the scene
        return None
    if state["loaded"]:
        return None
    if operator in _HISTORY:
        return _history_move(state, operator, params.get("args") or {})
    if operator == "ed.undo_push":
        _check_push(state)
        return None
    if changes_scene(method, params):
        state["ledger"].start()
    return None


def after_command(method: str, params: Any, result: Any, error: Optional[HandlerError]) -> None:
    """Called after each command with its result or its error."""
    state = _open
    if state is None or state["loaded"]:
        return
    operator = _operator(method, params)
    if operator in _HISTORY:
        if error is None:
            state["dirty"] = False  # a step was loaded: the scene is that step's
            if not state["worked"]:
                state["floor"] = _active_key()
        return
    if operator == "ed.undo_push":
        if error is None:
            state["dirty"] = False
            state["worked"] = True
            key = _active_key()
            if key is not None:
                state["own"].add(key)
        return
    if not changes_scene(method, params):
        return
    if error is not None and error.code in _NOT_STARTED:
        return
    state["dirty"] = True
    state["worked"] = True
    state["ledger"].note_parts(result)


def _active_key():
    step = undo_stack.active(undo_stack.read())
    return step.key if step is not None else None


def _refuse(message: str):
    raise HandlerError(INVALID_STATE, message)


def _history_move(state: Dict[str, Any], operator: str, args: Dict[str, Any]) -> Optional[Dict[str, Any]]:
    steps = undo_stack.read()
    current = undo_stack.active(steps)
    if steps is None or current is None:
        return None  # no history to guard: Blender answers for itself
    if state["dirty"]:
        if operator == "ed.redo":
            _refuse("ed.redo: the script changed the scene since its last undo step, so there is nothing of its own to redo")
        if operator == "ed.undo":
            # Takes back the changes made since the active step (Blender would also undo that
            # step, reaching into work that is not the script's).
            _reload(steps, current)
            state["dirty"] = False
            return {"result": ["FINISHED"], "undone": "the script's changes since its last undo step"}
    if not state["worked"]:
        return None  # walking the history before any change of its own: allowed
    floor = undo_stack.find(steps, state["floor"])
    if floor is None:
        return None
    if operator == "ed.undo":
        target = current.index - 1
    elif operator == "ed.redo":
        target = current.index + 1
    else:
        target = args.get("item")
        if not isinstance(target, int) or isinstance(target, bool):
            return None  # Blender refuses a bad item itself
    if target < floor.index:
        _refuse(
            f"{operator} would go past the start of this script's own changes (undo step {floor.name!r}): "
            "once a script has changed the scene it can undo only its own work. Undo earlier scripts "
            "in a script of their own, before changing anything"
        )
    return None


def _check_push(state: Dict[str, Any]) -> None:
    # Blender keeps so many steps (Preferences > Editing > Undo Steps): past that, it would drop
    # the step the script began at, and the script could no longer be rolled back.
    kept = getattr(getattr(bpy.context.preferences, "edit", None), "undo_steps", 32)
    if len(state["own"]) >= max(1, kept - 2):
        _refuse(
            f"ed.undo_push: this script already pushed {len(state['own'])} undo steps of its own; Blender keeps "
            f"{kept}, and one more could drop the step the script began at, so it could not be rolled back"
        )
    steps = undo_stack.read()
    current = undo_stack.active(steps)
    if current is None:
        return
    later = [
        step for step in steps if step.index > current.index and step.key not in state["own"] and step.key not in _dropped
    ]
    if later:
        shown = ", ".join(repr(step.name) for step in later[:3]) + (" …" if len(later) > 3 else "")
        _refuse(
            f"ed.undo_push here would discard {len(later)} redo step(s) of earlier work ({shown}); "
            "the script's rollback could not bring them back"
        )


def _reload(steps: List[undo_stack.Step], step: undo_stack.Step) -> None:
    """Loads ``step`` again, dropping the changes made since (a jump to the active step itself
    does nothing in Blender, so through a neighbour; a push and undo when it has none)."""
    if step.index > 0:
        bpy.ops.ed.undo_history(item=step.index - 1)
        bpy.ops.ed.undo_history(item=step.index)
    elif len(steps) > step.index + 1:
        bpy.ops.ed.undo_history(item=step.index + 1)
        bpy.ops.ed.undo_history(item=step.index)
    else:
        undo_stack.push("changes dropped")
        key = _active_key()
        if key is not None:
            _dropped.add(key)  # a redo step of nobody's work
        bpy.ops.ed.undo()


# ---- begin and end ---------------------------------------------------------------------------


def begin(params, call, policy):
    global _open, _clean
    label = str(params.get("label") or "dcc script").replace("\n", " ")[:80]
    _install_load_handler()
    if not _clean or not undo_stack.ready():
        undo_stack.push(f"before {label}")
        _clean = True
    start = _active_key()
    _open = {
        "label": label,
        "files": [],
        "loaded": False,
        "start": start,
        "floor": start,
        "own": set(),
        "dirty": False,
        "worked": False,
        "ledger": Ledger(),
        # Whether the scene had unsaved changes before the script: so again once rolled back.
        "unsaved": unsaved.value(),
    }
    return {}


def end(params, call, policy):
    global _open, _clean
    state, _open = _open, None
    if state is None:
        return {"rolledBack": False, "reason": "failed", "detail": "no transaction was open"}
    extra: Dict[str, Any] = {"filesWritten": state["files"]} if state["files"] else {}
    if state["loaded"]:
        _clean = False
        return {
            "rolledBack": False,
            "reason": "history_cut",
            "detail": "a file was opened (or the scene reset) during the script; Blender's undo history starts there",
            **extra,
        }
    changes = state["ledger"].report()
    if changes is not None:
        extra["changes"] = changes
    if params.get("rollback"):
        result = _rollback(state, extra)
        if result.get("rolledBack"):
            unsaved.restore(state["unsaved"])
        return result
    return _commit(state, extra)


def _commit(state: Dict[str, Any], extra: Dict[str, Any]) -> Dict[str, Any]:
    global _clean
    _clean = True
    if state["dirty"]:
        undo_stack.push(state["label"])
        return {"rolledBack": False, "undoStep": state["label"], **extra}
    steps = undo_stack.read()
    current = undo_stack.active(steps)
    if state["worked"] and current is not None and current.key in state["own"]:
        return {"rolledBack": False, "undoStep": current.name, **extra}
    moved = current is not None and current.key != state["start"]
    detail = (
        f"the script moved Blender's undo history to {current.name!r} and changed nothing else: no undo step of its own"
        if moved
        else "the script changed nothing: no undo step"
    )
    return {"rolledBack": False, "reason": "nothing_to_undo", "detail": detail, **extra}


def _rollback(state: Dict[str, Any], extra: Dict[str, Any]) -> Dict[str, Any]:
    global _clean
    if len(_dropped) > 256:
        _dropped.clear()  # long gone from Blender's stack
    _dropped.update(state["own"])
    steps = undo_stack.read()
    current = undo_stack.active(steps)
    start = undo_stack.find(steps, state["start"]) if state["start"] is not None else None
    if start is None or current is None:
        _clean = False
        return {
            "rolledBack": False,
            "reason": "history_cut",
            "detail": "Blender's undo history no longer holds the step the script began at (too many steps pushed since)",
            **extra,
        }
    if current.key == start.key and not state["dirty"]:
        _clean = True
        if not state["worked"]:
            return {"rolledBack": False, "reason": "nothing_to_undo", "detail": "the script changed nothing", **extra}
        return {"rolledBack": True, **extra}
    if current.key == start.key:
        _reload(steps, start)
    else:
        bpy.ops.ed.undo_history(item=start.index)
    if _active_key() != start.key:
        _clean = False
        return {
            "rolledBack": False,
            "reason": "failed",
            "detail": f"Blender did not return to the undo step {start.name!r} the script began at",
            **extra,
        }
    _clean = True
    return {"rolledBack": True, **extra}
