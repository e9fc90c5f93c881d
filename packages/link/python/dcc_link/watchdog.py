"""Exit when the Node parent dies, even by SIGKILL.

The parent holds one end of a pipe; the host inherits the other as ``DCC_LINK_WATCHDOG_FD``.
When the parent dies the kernel closes its end and a read here returns EOF at once. This needs
no polling and, unlike watching ``os.getppid()``, does not depend on who adopts the orphan.
"""

from __future__ import annotations

import atexit
import os
import threading
from typing import Callable, Optional

from .session import remove_session_dir


def start_watchdog(fd: int, on_parent_gone: Callable[[], None]) -> threading.Thread:
    """Starts a daemon thread that blocks reading ``fd`` and calls ``on_parent_gone`` on EOF."""
    os.set_inheritable(fd, False)

    def watch() -> None:
        while True:
            try:
                data = os.read(fd, 4096)
            except InterruptedError:
                continue
            except OSError:
                data = b""
            if not data:
                break
        on_parent_gone()

    thread = threading.Thread(target=watch, name="dcc-link-watchdog", daemon=True)
    thread.start()
    return thread


class ParentWatch:
    """What to do when the parent is gone: stop the server (which cancels the running call),
    give the loop ``grace`` seconds to return by itself, then remove the session folder and end
    the process, even if a handler is stuck in work that never checks for cancellation."""

    def __init__(self, stop: Callable[[], None], session_dir: Optional[str], grace: float = 1.5):
        self.fired = False
        self.done = threading.Event()
        self._stop = stop
        self._session_dir = session_dir
        self._grace = grace

    def attach(self, fd: Optional[int]) -> None:
        """Starts watching ``fd``; does nothing without one (a host nobody launched)."""
        if fd is not None:
            start_watchdog(fd, self._gone)

    def finished(self) -> None:
        """Called by the loop once it has stopped; cleans up if the parent is gone."""
        if self.fired:
            remove_session_dir(self._session_dir)
        self.done.set()

    def _gone(self) -> None:
        self.fired = True
        # If the host's own loop ends the interpreter first, this daemon thread dies mid-wait:
        # clean up at exit too.
        atexit.register(remove_session_dir, self._session_dir)
        self._stop()
        self.done.wait(self._grace)
        remove_session_dir(self._session_dir)
        os._exit(0)
