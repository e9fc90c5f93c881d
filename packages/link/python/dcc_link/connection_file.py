"""The connection file a DCC plug-in writes for an adapter to attach to (``LinkedAttachment``
in ``@dcc/linked-adapter``): JSON ``{"socket", "token", "pid"}``, mode 0600."""

from __future__ import annotations

import json
import os
import secrets
from typing import Optional

CONNECTION_FILE_NAME = "connection.json"


def write_connection_file(
    folder: str, socket_path: str, token: str, pid: Optional[int] = None
) -> str:
    """Writes ``connection.json`` in ``folder`` (which must be private to this user, 0700) and
    returns its path. The file is created 0600 and must not exist yet (a stale one is the
    caller's to remove), so nobody else can have prepared it."""
    path = os.path.join(folder, CONNECTION_FILE_NAME)
    # Written whole under another name, then linked into place: a reader that sees the file sees
    # all of it, and the link fails like O_EXCL would if the file exists.
    partial = os.path.join(folder, f".{CONNECTION_FILE_NAME}.{os.getpid()}.{secrets.token_hex(4)}")
    descriptor = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
            json.dump({"socket": socket_path, "token": token, "pid": os.getpid() if pid is None else pid}, handle)
        os.link(partial, path)
    finally:
        os.unlink(partial)
    return path
