"""Loop style (a): a blocking ``selectors`` loop on the main thread, for headless hosts.

Under ``blender -b`` timers never fire and Blender quits when the start-up script returns, so
the start-up script must itself be the loop. Calls run inline, one at a time, on the main
thread. While a handler runs nobody else reads the socket, so ``checkpoint()`` does: it reads
pending frames (at most every 10 ms), which is how a ``cancel`` reaches a running handler.
"""

from __future__ import annotations

import signal
import threading
import time
from typing import Optional

from .config import LinkConfig
from .dispatch import Dispatcher
from .ready import announce_ready
from .server import LinkServer
from .watchdog import ParentWatch

SERVICE_INTERVAL = 0.01


def serve_blocking(
    dispatcher: Dispatcher,
    config: Optional[LinkConfig] = None,
    *,
    announce: bool = True,
    handle_sigterm: bool = True,
) -> None:
    """Serves until SIGTERM, ``stop()`` from a handler (see ``current_server``) or the parent's
    death. ``config`` defaults to ``LinkConfig.from_env()``."""
    config = config if config is not None else LinkConfig.from_env()
    server = LinkServer(dispatcher, config, loop="blocking")
    server.service = _rate_limited(lambda: server.poll_io(0), SERVICE_INTERVAL)
    watch = ParentWatch(server.stop, config.session_dir)
    previous = None
    if handle_sigterm and threading.current_thread() is threading.main_thread():
        previous = signal.signal(signal.SIGTERM, lambda _signum, _frame: server.stop())
    watch.attach(config.watchdog_fd)
    _current[0] = server
    try:
        if announce:
            announce_ready(server)
        while not server.stopping:
            call = server.take_next()
            if call is None:
                server.poll_io(0.5)
            else:
                server.execute(call)
                server.poll_io(0)
    finally:
        _current[0] = None
        server.close()
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)
        watch.finished()


_current: list = [None]


def current_server() -> Optional[LinkServer]:
    """The server ``serve_blocking`` is running, or None (e.g. for a ``shutdown`` handler)."""
    return _current[0]


def _rate_limited(function, interval: float):
    last = [0.0]

    def service() -> None:
        now = time.monotonic()
        if now - last[0] >= interval:
            last[0] = now
            function()

    return service
