"""One accepted connection: its decoder, its unsent bytes and where it is in its life."""

from __future__ import annotations

import socket
from typing import Any, Callable, Dict

from .codec import FrameDecoder

# A peer that has not authenticated gets no more than this per frame: a hello is tiny.
PRE_AUTH_MAX_FRAME_BYTES = 4096


class Connection:
    """State of one peer. ``out``, ``calls`` and ``closed`` are guarded by the server's lock:
    in the pump loop, the main thread writes replies while the socket thread reads."""

    def __init__(
        self, sock: socket.socket, deadline: float, lock: Any, wake: Callable[[], None]
    ) -> None:
        self.sock = sock
        self.decoder = FrameDecoder(PRE_AUTH_MAX_FRAME_BYTES)
        self.authenticated = False
        # Before authentication: when to give up on the hello. While closing: when to stop
        # waiting for the peer to read the goodbye.
        self.deadline = deadline
        self.closing = False
        self.shut = False
        self.closed = False
        self.broken = False
        self.out = bytearray()
        self.calls: Dict[Any, Any] = {}
        self._lock = lock
        self._wake = wake

    def write(self, data: bytes) -> None:
        """Sends ``data`` now as far as the socket takes it and keeps the rest for the socket
        thread (woken to watch for writability). Caller holds the server's lock."""
        if self.closed or self.closing or self.broken:
            return
        if not self.out:
            try:
                sent = self.sock.send(data)
            except (BlockingIOError, InterruptedError):
                sent = 0
            except OSError:
                self.broken = True
                self._wake()
                return
            if sent == len(data):
                return
            data = data[sent:]
        self.out += data
        self._wake()

    def flush(self) -> None:
        """Sends what is buffered (socket thread, lock held)."""
        while self.out and not self.broken:
            try:
                sent = self.sock.send(self.out)
            except (BlockingIOError, InterruptedError):
                return
            except OSError:
                self.broken = True
                return
            del self.out[:sent]

    def send_raw(self, raw: bytes) -> None:
        """Queues raw bytes (used by protocol tests through ``Call._emit``)."""
        with self._lock:
            self.write(raw)
