"""Exit when the Node parent dies, even by SIGKILL.

The parent holds one end of a pipe; the host inherits the other as ``DCC_LINK_WATCHDOG_FD``.
When the parent dies the kernel closes its end and a read here returns EOF at once. This needs
no polling and, unlike watching ``os.getppid()``, does not depend on who adopts the orphan.
"""

from __future__ import annotations

import atexit
import os
import threading
import time
from typing import Callable, Optional

from .session import remove_session_dir


def start_watchdog(
    fd: int, on_parent_gone: Callable[[], None], on_notice: Callable[[], None] = lambda: None
) -> threading.Thread:
    """Starts a daemon thread that blocks reading ``fd``: ``on_notice`` runs when the parent
    writes (it does, once, before it ends this process on purpose), ``on_parent_gone`` on EOF."""
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
            on_notice()
        on_parent_gone()

    thread = threading.Thread(target=watch, name="dcc-link-watchdog", daemon=True)
    thread.start()
    return thread


# How long a loop that stopped without notice from the parent waits to learn whether the
# parent is dying too (a signal sent to the whole process group ends both at once).
EXIT_CHECK_SECONDS = 1.0


class ParentWatch:
    """What to do when the parent is gone: stop the server (which cancels the running call),
    give the loop ``grace`` seconds to return by itself, then remove the session folder and end
    the process, even if a handler is stuck in work that never checks for cancellation."""

    def __init__(self, stop: Callable[[], None], session_dir: Optional[str], grace: float = 1.5):
        self.fired = False
        self.told = threading.Event()
        self._fd: Optional[int] = None
        self.done = threading.Event()
        self._stop = stop
        self._session_dir = session_dir
        self._grace = grace

    def attach(self, fd: Optional[int]) -> None:
        """Starts watching ``fd``; does nothing without one (a host nobody launched)."""
        if fd is not None:
            self._fd = fd
            start_watchdog(fd, self._gone, self.told.set)

    def finished(self) -> None:
        """Called by the loop once it has stopped; cleans up if the parent is gone."""
        if not self.fired and self._fd is not None:
            # Stopped without the parent's notice: a signal to the whole process group (a test
            # runner or a shell stopping everything) may be ending the parent too, and then
            # nobody else will remove the folder. Wait briefly for its end of the pipe to close.
            deadline = time.monotonic() + EXIT_CHECK_SECONDS
            while not (self.fired or self.told.is_set()) and time.monotonic() < deadline:
                self.told.wait(0.01)
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
