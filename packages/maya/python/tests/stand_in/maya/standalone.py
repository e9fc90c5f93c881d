"""``maya.standalone`` (stand-in): ``initialize`` must come before ``maya.cmds`` works."""

from . import _state


def initialize(name="python"):
    """A new Maya starts with a new scene: the tests' scene server is reset."""
    from . import cmds

    _state.initialized = True
    cmds._scene("POST", "/reset", {})


def uninitialize():
    _state.initialized = False
    _state.uninitialized = True
