"""The ready line the Node side waits for on the host's stdout."""

from __future__ import annotations

import json
import os
import sys
from typing import Any, Optional, TextIO

READY_PREFIX = "DCC_LINK_READY"


def announce_ready(server: Any, stream: Optional[TextIO] = None) -> None:
    """Prints ``DCC_LINK_READY {json}`` and flushes (hosts such as Blender block-buffer stdout).
    The line carries the endpoint, the loop style and the pid, never the token."""
    line = json.dumps(
        {"protocol": 1, "pid": os.getpid(), "loop": server.loop, "endpoint": server.endpoint}
    )
    print(f"{READY_PREFIX} {line}", file=stream or sys.stdout, flush=True)
