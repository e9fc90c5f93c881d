"""Loop style (b): a socket thread plus a main-thread pump, for hosts with their own loop.

The socket thread only reads, queues and writes (it also answers pings, so the Node side can
tell a busy host from a dead one). The host calls ``pump(budget_seconds)`` on its main thread
from its own timer (Blender's ``bpy.app.timers``, Maya's idle queue): queued calls run there,
never on the socket thread, until the budget is spent. A call is never interrupted: a tick runs
at least one queued call and starts no new one once the budget is gone.
"""

from __future__ import annotations

import threading
import time
from typing import Optional

from .config import LinkConfig
from .dispatch import Dispatcher
from .ready import announce_ready
from .server import LinkServer
from .watchdog import ParentWatch


class PumpServer:
    """The link served by a socket thread; call ``start()``, then ``pump()`` on every tick."""

    def __init__(self, dispatcher: Dispatcher, config: Optional[LinkConfig] = None) -> None:
        config = config if config is not None else LinkConfig.from_env()
        self._server = LinkServer(dispatcher, config, loop="pump")
        self._work = threading.Event()
        self._server.on_queued = self._work.set
        self._thread = threading.Thread(target=self._serve, name="dcc-link-io", daemon=True)
        # The host's main loop is not ours to end: once the parent is gone, the watchdog
        # removes the session folder and ends the process.
        self._watch = ParentWatch(self._server.stop, config.session_dir)
        self._config = config

    @property
    def endpoint(self) -> dict:
        """Where the server listens, as the ready line reports it."""
        return self._server.endpoint

    def start(self, *, announce: bool = True) -> "PumpServer":
        """Starts the socket thread and the watchdog, then prints the ready line."""
        self._thread.start()
        self._watch.attach(self._config.watchdog_fd)
        if announce:
            announce_ready(self._server)
        return self

    def pump(self, budget_seconds: float = 0.01) -> int:
        """Runs queued calls on the calling (main) thread for up to ``budget_seconds``; returns
        how many ran."""
        server = self._server
        started = time.monotonic()
        ran = 0
        try:
            while not server.stopping:
                call = server.take_next()
                if call is None:
                    break
                server.execute(call)
                ran += 1
                if time.monotonic() - started >= budget_seconds:
                    break
        finally:
            server.last_pump = time.monotonic()
            if not server.has_pending():
                self._work.clear()
                if server.has_pending():  # queued between the check and the clear
                    self._work.set()
        return ran

    def wait(self, timeout: float) -> bool:
        """Blocks until a call is queued or ``timeout`` passes; for hosts that have no loop of
        their own (tests, plain Python)."""
        return self._work.wait(timeout)

    @property
    def stopping(self) -> bool:
        """True once ``stop()`` was called or the parent died."""
        return self._server.stopping

    def stop(self, timeout: float = 2.0) -> None:
        """Stops the socket thread (queued calls are answered ``SHUTTING_DOWN``)."""
        self._server.stop()
        self._work.set()
        if self._thread.is_alive() and self._thread is not threading.current_thread():
            self._thread.join(timeout)
        self._watch.finished()

    def _serve(self) -> None:
        server = self._server
        try:
            while not server.stopping:
                server.poll_io(0.5)
        finally:
            server.close()
