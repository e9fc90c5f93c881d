"""DCC-neutral Python side of ``@dcc/link`` (stdlib only, Python 3.9+).

Register handlers on a ``Dispatcher``, then serve them with one of two loop styles:
``serve_blocking`` (the start-up script is the loop, e.g. ``blender -b``) or ``PumpServer``
(a socket thread, and ``pump()`` called from the host's main-thread timer).
"""

from .blocking import current_server, serve_blocking
from .call import Call, checkpoint, current_call
from .codec import DEFAULT_MAX_FRAME_BYTES, FrameDecoder, FrameError, encode_frame
from .config import LinkConfig
from .dispatch import Dispatcher
from .errors import CallCancelled, HandlerError, LinkConfigError
from .pump import PumpServer
from .ready import READY_PREFIX

__all__ = [
    "DEFAULT_MAX_FRAME_BYTES",
    "READY_PREFIX",
    "Call",
    "CallCancelled",
    "Dispatcher",
    "FrameDecoder",
    "FrameError",
    "HandlerError",
    "LinkConfig",
    "LinkConfigError",
    "PumpServer",
    "checkpoint",
    "current_call",
    "current_server",
    "encode_frame",
    "serve_blocking",
]
