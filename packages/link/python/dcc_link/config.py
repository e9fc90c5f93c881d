"""The link's settings, normally read from the environment the Node side sets up.

The token arrives in ``DCC_LINK_TOKEN`` or in a 0600 file named by ``DCC_LINK_TOKEN_FILE``
(never on a command line). Reading it removes it: the variable is unset, so processes the host
starts later do not inherit it, and the file is deleted.
"""

from __future__ import annotations

import ipaddress
import os
from dataclasses import dataclass
from typing import MutableMapping, Optional

from .auth import MIN_TOKEN_LENGTH
from .codec import DEFAULT_MAX_FRAME_BYTES
from .errors import LinkConfigError

ENV_TOKEN = "DCC_LINK_TOKEN"
ENV_TOKEN_FILE = "DCC_LINK_TOKEN_FILE"
ENV_SOCKET = "DCC_LINK_SOCKET"
ENV_TCP_PORT = "DCC_LINK_TCP_PORT"
ENV_MAX_FRAME = "DCC_LINK_MAX_FRAME_BYTES"
ENV_AUTH_TIMEOUT = "DCC_LINK_AUTH_TIMEOUT_MS"
ENV_WATCHDOG_FD = "DCC_LINK_WATCHDOG_FD"
ENV_SESSION_DIR = "DCC_LINK_SESSION_DIR"


@dataclass
class LinkConfig:
    """Where to listen and whom to trust. Exactly one of ``socket_path`` and ``tcp_port``."""

    token: str
    socket_path: Optional[str] = None
    tcp_port: Optional[int] = None
    tcp_host: str = "127.0.0.1"
    max_frame_bytes: int = DEFAULT_MAX_FRAME_BYTES
    auth_timeout: float = 5.0
    watchdog_fd: Optional[int] = None
    session_dir: Optional[str] = None

    def __post_init__(self) -> None:
        if not isinstance(self.token, str) or len(self.token) < MIN_TOKEN_LENGTH:
            raise LinkConfigError(f"the token must be a string of {MIN_TOKEN_LENGTH}+ characters")
        if (self.socket_path is None) == (self.tcp_port is None):
            raise LinkConfigError("set exactly one of socket_path and tcp_port")
        if self.tcp_port is not None:
            try:
                loopback = ipaddress.ip_address(self.tcp_host).is_loopback
            except ValueError:
                loopback = False
            if not loopback:
                raise LinkConfigError(f"refusing to listen on {self.tcp_host!r}: not loopback")
        if self.max_frame_bytes < 1024:
            raise LinkConfigError("max_frame_bytes must be at least 1024")

    @classmethod
    def from_env(cls, environ: Optional[MutableMapping[str, str]] = None) -> "LinkConfig":
        """Reads the settings from ``environ`` (default ``os.environ``) and removes the token."""
        env = os.environ if environ is None else environ
        token = env.pop(ENV_TOKEN, None)
        token_file = env.pop(ENV_TOKEN_FILE, None)
        if not token and token_file:
            token = _read_token_file(token_file)
        if not token:
            raise LinkConfigError(f"no token: set {ENV_TOKEN} or {ENV_TOKEN_FILE}")
        port = env.get(ENV_TCP_PORT)
        fd = env.get(ENV_WATCHDOG_FD)
        return cls(
            token=token,
            socket_path=env.get(ENV_SOCKET) or None,
            tcp_port=int(port) if port not in (None, "") else None,
            max_frame_bytes=int(env.get(ENV_MAX_FRAME) or DEFAULT_MAX_FRAME_BYTES),
            auth_timeout=int(env.get(ENV_AUTH_TIMEOUT) or 5000) / 1000,
            watchdog_fd=int(fd) if fd not in (None, "") else None,
            session_dir=env.get(ENV_SESSION_DIR) or None,
        )


def _read_token_file(path: str) -> str:
    try:
        with open(path, encoding="utf-8") as handle:
            token = handle.read().strip()
    except OSError as error:
        raise LinkConfigError(f"cannot read the token file: {error}") from None
    try:
        os.unlink(path)
    except OSError:
        pass
    return token
