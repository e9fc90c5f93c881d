"""The protocol both loop styles share: authenticate, answer pings and cancels, queue calls,
run them and write replies. ``poll_io`` belongs to the thread that owns the sockets;
``take_next`` and ``execute`` run on the host's main thread."""

from __future__ import annotations

import collections
import os
import threading
import time
from typing import Any, Callable, Deque, Optional

from .auth import token_matches
from .call import Call
from .codec import BAD_FRAME, FrameError
from .config import LinkConfig
from .connection import Connection
from .dispatch import Dispatcher, error_reply
from .errors import CANCELLED
from .hub import SocketHub

PROTOCOL = 1


class LinkServer:
    """Serves the link for one host. ``loop`` is ``"blocking"`` or ``"pump"`` (see the loops)."""

    def __init__(self, dispatcher: Dispatcher, config: LinkConfig, loop: str) -> None:
        self.dispatcher = dispatcher
        self.config = config
        self.loop = loop
        self.lock = threading.Lock()
        self.running: Optional[Call] = None
        self.last_pump = time.monotonic()
        self.stopping = False
        # Called on the I/O thread when a call is queued; lets the pump loop wake its host.
        self.on_queued: Optional[Callable[[], None]] = None
        # Given to every call: the blocking loop reads the socket from checkpoints through it.
        self.service: Optional[Callable[[], None]] = None
        self._pending: Deque[Call] = collections.deque()
        self.hub = SocketHub(config, self.lock, self._on_frame, self._forget_calls)
        self.endpoint = self.hub.endpoint

    def take_next(self) -> Optional[Call]:
        """The oldest queued call, now marked running; None when nothing waits (main thread)."""
        with self.lock:
            while self._pending:
                call = self._pending.popleft()
                if not call.connection.closed:
                    self.running = call
                    return call
            return None

    def execute(self, call: Call) -> None:
        """Runs a call taken with ``take_next`` and sends its reply (main thread)."""
        reply = self.dispatcher.run(call)
        try:
            data = self.hub.encode(reply)
        except FrameError as error:
            data = self.hub.encode(
                error_reply(call.id, "RESULT_TOO_LARGE", error.message, started=True)
            )
        except Exception as error:  # noqa: BLE001 - also RecursionError, MemoryError
            # Whatever a handler returned, the caller gets an answer and the host keeps serving.
            message = f"the reply is not representable as JSON: {type(error).__name__}: {error}"
            data = self.hub.encode(error_reply(call.id, "INVALID_RESULT", message, started=True))
        with self.lock:
            self.running = None
            call.connection.calls.pop(call.id, None)
            call.connection.write(data)

    def has_pending(self) -> bool:
        """True when a call waits for the main thread."""
        return bool(self._pending)

    def poll_io(self, timeout: float) -> None:
        """Handles socket events for up to ``timeout`` seconds (I/O owner only)."""
        self.hub.poll(timeout)

    def stop(self) -> None:
        """Asks the loop to stop and cancels the running call. Safe from a signal handler (it
        takes no lock) and from any thread."""
        self.stopping = True
        self.hub.accepting = False
        running = self.running
        if running is not None:
            running.cancel("the host is stopping")
        self.hub.wake()

    def close(self) -> None:
        """Answers queued calls with ``SHUTTING_DOWN``, says goodbye and closes everything
        (I/O owner, once its loop has ended)."""
        message = "the host stopped before the call started"
        bye = self.hub.encode({"type": "bye", "code": "SHUTDOWN", "message": "the host stopped"})
        with self.lock:
            for call in self._pending:
                call.connection.calls.pop(call.id, None)
                reply = error_reply(call.id, "SHUTTING_DOWN", message, started=False)
                call.connection.write(self.hub.encode(reply))
            self._pending.clear()
            for conn in self.hub.connections():
                if conn.authenticated:
                    conn.write(bye)
        self.hub.close()

    # ---- frames (I/O owner) ------------------------------------------------------------------

    def _on_frame(self, conn: Connection, frame: dict) -> None:
        kind = frame["type"]
        if not conn.authenticated:
            if kind == "hello" and token_matches(frame.get("token"), self.config.token):
                self._welcome(conn, frame)
            else:
                self.hub.drop(conn)  # no answer at all to a peer without the token
        elif kind == "call":
            self._queue_call(conn, frame)
        elif kind == "cancel":
            self._cancel(conn, frame.get("id"))
        elif kind == "ping":
            self.hub.send(conn, self._pong(frame.get("id")))
        else:
            self.hub.fail(conn, BAD_FRAME, f"unexpected frame type {kind!r}")

    def _welcome(self, conn: Connection, frame: dict) -> None:
        conn.authenticated = True
        if frame.get("protocol") != PROTOCOL:
            self.hub.fail(conn, "PROTOCOL_MISMATCH", f"this host speaks protocol {PROTOCOL}")
            return
        conn.decoder.max_frame_bytes = self.config.max_frame_bytes
        welcome = {
            "type": "welcome",
            "protocol": PROTOCOL,
            "loop": self.loop,
            "pid": os.getpid(),
            "maxFrameBytes": self.config.max_frame_bytes,
        }
        self.hub.send(conn, welcome)

    def _queue_call(self, conn: Connection, frame: dict) -> None:
        call_id = frame.get("id")
        if isinstance(call_id, bool) or not isinstance(call_id, (int, str)):
            self.hub.fail(conn, BAD_FRAME, "a call frame needs an integer or string id")
            return
        method = frame.get("method")
        params = frame.get("params", {})
        refusal = None
        if not isinstance(method, str) or not isinstance(params, dict):
            refusal = ("BAD_REQUEST", "a call needs a string method and object params")
        elif self.stopping:
            refusal = ("SHUTTING_DOWN", "the host is stopping")
        with self.lock:
            if refusal is None and call_id in conn.calls:
                refusal = ("DUPLICATE_ID", f"call {call_id!r} is already in progress")
            if refusal is not None:
                conn.write(self.hub.encode(error_reply(call_id, *refusal, started=False)))
                return
            call = Call(call_id, method, params, conn, self.service)
            conn.calls[call_id] = call
            self._pending.append(call)
        if self.on_queued is not None:
            self.on_queued()

    def _cancel(self, conn: Connection, call_id: Any) -> None:
        with self.lock:
            call = conn.calls.get(call_id) if isinstance(call_id, (int, str)) else None
            if call is None:
                return
            if call is self.running:
                call.cancel("the caller cancelled it")
                return
            self._pending.remove(call)
            del conn.calls[call_id]
            message = f"{call.method} was cancelled before it started"
            conn.write(self.hub.encode(error_reply(call_id, CANCELLED, message, started=False)))

    def _pong(self, ping_id: Any) -> dict:
        busy = self.running is not None
        pong = {"type": "pong", "id": ping_id, "busy": busy}
        if self.loop == "pump":
            # How long the main thread has not pumped; 0 while it runs a call (busy, not stuck).
            age = 0.0 if busy else time.monotonic() - self.last_pump
            pong["pumpAgeMs"] = int(age * 1000)
        return pong

    def _forget_calls(self, conn: Connection) -> None:
        # Lock held; the peer is gone. Queued calls never run; a running one is cancelled, so a
        # handler that checks stops early.
        for call in conn.calls.values():
            if call is self.running:
                call.cancel("the connection that carried it is gone")
            else:
                try:
                    self._pending.remove(call)
                except ValueError:
                    pass
        conn.calls.clear()
