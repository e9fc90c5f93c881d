"""Socket mechanics under the protocol: the listener, accepted connections, deadlines, reads
and buffered writes, and dropping a peer. Frames go up to the server through ``on_frame``."""

from __future__ import annotations

import os
import selectors
import socket
import stat
import sys
import time
from typing import Any, Callable, Dict, Iterator

from .codec import FrameError, encode_frame
from .config import LinkConfig
from .connection import Connection
from .listen import describe_endpoint, open_listener

MAX_UNAUTHENTICATED = 8
LINGER_SECONDS = 1.0
_LISTEN = object()
_WAKE = object()


class SocketHub:
    """Owns the sockets. Only the I/O thread calls ``poll``; ``wake`` works from anywhere."""

    def __init__(
        self,
        config: LinkConfig,
        lock: Any,
        on_frame: Callable[[Connection, dict], None],
        on_drop: Callable[[Connection], None],
    ) -> None:
        self.config = config
        self.lock = lock
        self.accepting = True
        self._on_frame = on_frame
        self._on_drop = on_drop  # called with the lock held when a peer goes away
        self._connections: Dict[Connection, int] = {}
        self._closed = False
        self._selector = selectors.DefaultSelector()
        self._listener = open_listener(config)
        self.endpoint = describe_endpoint(self._listener, config)
        self._wake_r, self._wake_w = socket.socketpair()
        self._wake_r.setblocking(False)
        self._wake_w.setblocking(False)
        self._selector.register(self._listener, selectors.EVENT_READ, _LISTEN)
        self._selector.register(self._wake_r, selectors.EVENT_READ, _WAKE)

    def connections(self) -> Iterator[Connection]:
        """The open connections."""
        return iter(list(self._connections))

    def encode(self, frame: dict) -> bytes:
        """A frame within this link's size limit (raises ``FrameError`` beyond it)."""
        return encode_frame(frame, self.config.max_frame_bytes)

    def send(self, conn: Connection, frame: dict) -> None:
        """Encodes and writes one frame."""
        data = self.encode(frame)
        with self.lock:
            conn.write(data)

    def wake(self) -> None:
        """Makes a waiting ``poll`` return (any thread, or a signal handler)."""
        try:
            self._wake_w.send(b"\0")
        except OSError:
            pass  # already awake (buffer full) or closed

    def poll(self, timeout: float) -> None:
        """Waits up to ``timeout`` seconds for socket events and handles them."""
        if self._closed:
            return
        now = time.monotonic()
        for conn in self._connections:
            if not conn.authenticated or conn.closing:
                timeout = min(timeout, max(0.0, conn.deadline - now))
        for key, mask in self._selector.select(timeout):
            tag = key.data
            if tag is _LISTEN:
                self._accept()
            elif tag is _WAKE:
                self._drain_wake()
            else:
                if mask & selectors.EVENT_READ:
                    self._read(tag)
                if mask & selectors.EVENT_WRITE and not tag.closed:
                    with self.lock:
                        tag.flush()
        self._tidy()

    def fail(self, conn: Connection, code: str, message: str) -> None:
        """Drops a peer that broke the protocol; an authenticated one is told why first."""
        if not conn.authenticated:
            self.drop(conn)
            return
        print(f"dcc_link: dropping a connection: {message}", file=sys.stderr, flush=True)
        bye = self.encode({"type": "bye", "code": code, "message": message})
        with self.lock:
            self._on_drop(conn)
            conn.write(bye)
            conn.closing = True
        conn.deadline = time.monotonic() + LINGER_SECONDS

    def drop(self, conn: Connection) -> None:
        """Closes a connection at once."""
        if conn.closed:
            return
        try:
            self._selector.unregister(conn.sock)
        except (KeyError, ValueError, OSError):
            pass
        with self.lock:
            conn.closed = True
            self._on_drop(conn)
            conn.out.clear()
        try:
            conn.sock.close()
        except OSError:
            pass
        self._connections.pop(conn, None)

    def close(self) -> None:
        """Flushes what each peer is owed (briefly, blocking), closes every socket and removes
        the socket file."""
        if self._closed:
            return
        self._closed = True
        for conn in list(self._connections):
            try:
                conn.sock.settimeout(0.5)
                conn.sock.sendall(bytes(conn.out))
            except OSError:
                pass
            self.drop(conn)
        self._selector.close()
        self._listener.close()
        self._wake_r.close()
        self._wake_w.close()
        path = self.config.socket_path
        if path is not None:
            try:
                if stat.S_ISSOCK(os.lstat(path).st_mode):
                    os.unlink(path)
            except OSError:
                pass

    def _drain_wake(self) -> None:
        try:
            while self._wake_r.recv(4096):
                pass
        except OSError:
            pass

    def _accept(self) -> None:
        while True:
            try:
                sock, _ = self._listener.accept()
            except OSError:
                return
            waiting = sum(1 for conn in self._connections if not conn.authenticated)
            if not self.accepting or waiting >= MAX_UNAUTHENTICATED:
                sock.close()
                continue
            sock.setblocking(False)
            if sock.family != socket.AF_UNIX:
                sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            deadline = time.monotonic() + self.config.auth_timeout
            conn = Connection(sock, deadline, self.lock, self.wake)
            self._connections[conn] = selectors.EVENT_READ
            self._selector.register(sock, selectors.EVENT_READ, conn)

    def _read(self, conn: Connection) -> None:
        try:
            data = conn.sock.recv(65536)
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            data = b""
        if not data:
            self.drop(conn)
            return
        if conn.closing:
            return  # a dropped peer's late bytes are read and ignored until it hangs up
        try:
            frames = conn.decoder.feed(data)
        except FrameError as error:
            self.fail(conn, error.code, error.message)
            return
        for frame in frames:
            self._on_frame(conn, frame)
            if conn.closed or conn.closing:
                return

    def _tidy(self) -> None:
        now = time.monotonic()
        for conn in list(self._connections):
            if conn.broken or ((not conn.authenticated or conn.closing) and now >= conn.deadline):
                self.drop(conn)
                continue
            with self.lock:
                unsent = bool(conn.out)
            if conn.closing and not unsent and not conn.shut:
                conn.shut = True
                try:
                    # The goodbye is out: half-close so the peer reads it before it sees EOF.
                    conn.sock.shutdown(socket.SHUT_WR)
                except OSError:
                    pass
            want = selectors.EVENT_READ | (selectors.EVENT_WRITE if unsent else 0)
            if want != self._connections[conn]:
                self._selector.modify(conn.sock, want, conn)
                self._connections[conn] = want
