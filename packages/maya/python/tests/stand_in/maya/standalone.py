"""``maya.standalone`` (stand-in): ``initialize`` must come before ``maya.cmds`` works."""

from . import _state


def initialize(name="python"):
    """A new Maya starts with a new scene: the tests' scene server is reset."""
    from . import _render, cmds

    _state.initialized = True
    _render.reset()
    cmds._scene("POST", "/reset", {})


def uninitialize():
    _state.initialized = False
    _state.uninitialized = True
