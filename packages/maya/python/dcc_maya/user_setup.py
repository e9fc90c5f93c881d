"""For ``userSetup.py`` (see ``python/user-setup/userSetup.py``): serve the link once Maya is
up, without a plug-in::

    import maya.utils
    maya.utils.executeDeferred(lambda: __import__("dcc_maya.user_setup").user_setup.start())

The link stops, and its connection file goes, when Maya's Python exits.
"""

from __future__ import annotations

import atexit

from .interactive import InteractiveLink

_service = {"link": None}


def start() -> InteractiveLink:
    """Starts serving (once); call on Maya's main thread."""
    if _service["link"] is None:
        _service["link"] = InteractiveLink().start()
        atexit.register(stop)
    return _service["link"]


def stop() -> None:
    """Stops serving and removes the connection file."""
    link = _service["link"]
    _service["link"] = None
    if link is not None:
        link.stop()
