"""Blender's undo stack as data: its steps, which one is active, read without walking the scene.

Blender 3.4 has no Python API for the undo stack; ``WindowManager.print_undo_steps()`` prints
every step (``[*#M ]   3 {0x7f…} type='Global Undo', name='…'``) to the process's standard
output, so that output is captured for the call. The cost grows with the number of steps
(Blender keeps 32 by default), never with the scene. A step is known by its address and name
(its index shifts when Blender drops the oldest steps).

Under ``blender -b`` the stack does not exist until the first push, and a file load (factory
settings too) frees it again; printing it then crashes Blender, so :func:`ready` says when it
may be read (a window always has one).
"""

from __future__ import annotations

import ctypes
import os
import re
import sys
import tempfile
from typing import List, NamedTuple, Optional, Tuple

import bpy

_LINE = re.compile(r"^\[(?P<flags>.{4})\]\s+(?P<index>\d+)\s+\{(?P<address>[^}]*)\}\s+type='(?P<type>[^']*)', name='(?P<name>.*)'$")
_state = {"ready": not bpy.app.background, "libc": None, "buffer": None}


class Step(NamedTuple):
    """One undo step: where it is, what it is called, and whether it is the active one."""

    index: int
    address: str
    name: str
    active: bool

    @property
    def key(self) -> Tuple[str, str]:
        return (self.address, self.name)


def ready() -> bool:
    """True when the stack exists and may be read."""
    return bool(_state["ready"])


def mark_pushed() -> None:
    """A push made the stack exist (under ``-b``)."""
    _state["ready"] = True


def mark_loaded() -> None:
    """A file load freed the stack under ``-b`` (a window gets a new one at once)."""
    _state["ready"] = not bpy.app.background


def push(message: str) -> None:
    """Pushes a step holding the scene as it is now."""
    bpy.ops.ed.undo_push(message=message)
    mark_pushed()


def _flush() -> None:
    sys.stdout.flush()
    if _state["libc"] is None:
        try:
            _state["libc"] = ctypes.CDLL(None)
        except OSError:  # no C library to name (Windows): Python's own flush must do
            _state["libc"] = False
    if _state["libc"]:
        _state["libc"].fflush(None)  # Blender's C stdio buffer, where the steps are waiting


def read() -> Optional[List[Step]]:
    """The steps, oldest first; None when the stack does not exist or cannot be read."""
    if not ready():
        return None
    try:
        _flush()
        if _state["buffer"] is None:
            _state["buffer"] = tempfile.TemporaryFile()
        buffer = _state["buffer"]
        saved = os.dup(1)
    except OSError:
        return None
    buffer.seek(0)
    buffer.truncate()
    os.dup2(buffer.fileno(), 1)
    try:
        bpy.context.window_manager.print_undo_steps()
    finally:
        _flush()
        os.dup2(saved, 1)
        os.close(saved)
    buffer.seek(0)
    steps = []
    for line in buffer.read().decode("utf-8", "replace").splitlines():
        match = _LINE.match(line.strip())
        if match:
            steps.append(Step(int(match["index"]), match["address"], match["name"], "*" in match["flags"]))
    return steps


def active(steps: Optional[List[Step]]) -> Optional[Step]:
    """The active step of ``steps``."""
    for step in steps or ():
        if step.active:
            return step
    return None


def find(steps: Optional[List[Step]], key: Tuple[str, str]) -> Optional[Step]:
    """The step known by ``key`` (address and name), if the stack still holds it."""
    for step in steps or ():
        if step.key == key:
            return step
    return None
