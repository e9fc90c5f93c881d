"""``maya.standalone`` (stand-in): ``initialize`` must come before ``maya.cmds`` works."""

from . import _state


def initialize(name="python"):
    _state.initialized = True


def uninitialize():
    _state.initialized = False
    _state.uninitialized = True
