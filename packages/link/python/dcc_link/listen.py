"""The listening socket: a Unix socket in the Node side's private folder, or loopback TCP."""

from __future__ import annotations

import os
import socket
import stat

from .config import LinkConfig
from .errors import LinkConfigError


def open_listener(config: LinkConfig) -> socket.socket:
    """Binds and listens (non-blocking). Never binds a non-loopback address (the config refuses
    one); a Unix socket file left by a dead predecessor is replaced, any other file is not."""
    if config.socket_path is not None:
        path = config.socket_path
        try:
            mode = os.lstat(path).st_mode
        except FileNotFoundError:
            mode = None
        if mode is not None:
            if not stat.S_ISSOCK(mode):
                raise LinkConfigError(f"{path} exists and is not a socket")
            os.unlink(path)
        listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            listener.bind(path)
            os.chmod(path, 0o600)
        except OSError:
            listener.close()
            raise
    else:
        family = socket.AF_INET6 if ":" in config.tcp_host else socket.AF_INET
        listener = socket.socket(family, socket.SOCK_STREAM)
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            listener.bind((config.tcp_host, config.tcp_port))
        except OSError:
            listener.close()
            raise
    listener.listen(8)
    listener.setblocking(False)
    return listener


def describe_endpoint(listener: socket.socket, config: LinkConfig) -> dict:
    """The endpoint as the ready line reports it."""
    if config.socket_path is not None:
        return {"kind": "unix", "path": config.socket_path}
    host, port = listener.getsockname()[:2]
    return {"kind": "tcp", "host": host, "port": port}
