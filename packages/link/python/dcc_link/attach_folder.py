"""The private folder an interactive DCC serves ``@dcc/link`` from, for an adapter to attach to
(``LinkedAttachment`` in ``@dcc/linked-adapter``): a 0700 folder holding the Unix socket
``link.sock`` and ``connection.json`` (see ``write_connection_file``).
"""

from __future__ import annotations

import os
import secrets
import stat
import tempfile
from typing import Mapping, Optional

from .config import LinkConfig
from .connection_file import CONNECTION_FILE_NAME, write_connection_file

SOCKET_FILE_NAME = "link.sock"
_FILES = (CONNECTION_FILE_NAME, SOCKET_FILE_NAME)


def launched_by_link(environ: Optional[Mapping[str, str]] = None) -> bool:
    """True when the Node side launched this process (``DCC_LINK_*`` set): serve with
    ``LinkConfig.from_env()`` then, not from an attach folder."""
    env = os.environ if environ is None else environ
    return bool(env.get("DCC_LINK_SOCKET") or env.get("DCC_LINK_TCP_PORT"))


class AttachFolder:
    """Opens the attach folder: ``env[folder_var]`` when set (created 0700, or reused only if
    this user owns it and nobody else can enter it; what a crashed DCC left there is removed),
    else a new ``prefix*`` folder under ``XDG_RUNTIME_DIR`` or the temp folder. It holds a new
    random token's ``connection.json``; ``config`` is the ``LinkConfig`` to serve with, and
    ``remove()`` takes the folder away again."""

    def __init__(self, folder_var: str, prefix: str, environ: Optional[Mapping[str, str]] = None) -> None:
        env = os.environ if environ is None else environ
        chosen = env.get(folder_var)
        if chosen:
            folder = _own_private_folder(folder_var, os.path.abspath(os.path.expanduser(chosen)))
        else:
            base = env.get("XDG_RUNTIME_DIR") or tempfile.gettempdir()
            folder = tempfile.mkdtemp(prefix=prefix, dir=base)
        os.chmod(folder, 0o700)
        socket_path = os.path.join(folder, SOCKET_FILE_NAME)
        token = secrets.token_urlsafe(32)
        self.folder = folder
        self.connection_file = write_connection_file(folder, socket_path, token)
        self.config = LinkConfig(token=token, socket_path=socket_path)

    def remove(self) -> None:
        """Removes the connection file, the socket and the folder (what is already gone, or a
        folder something else was put in, is left as it is)."""
        for name in _FILES:
            try:
                os.unlink(os.path.join(self.folder, name))
            except OSError:
                pass
        try:
            os.rmdir(self.folder)
        except OSError:
            pass


def _own_private_folder(folder_var: str, folder: str) -> str:
    try:
        os.mkdir(folder, 0o700)
    except FileExistsError:
        info = os.lstat(folder)
        if not stat.S_ISDIR(info.st_mode) or info.st_uid != os.getuid() or info.st_mode & 0o077:
            raise RuntimeError(
                f"{folder_var} {folder} must be a folder of this user that only it can open (0700)"
            ) from None
        for name in _FILES:
            try:
                os.unlink(os.path.join(folder, name))
            except FileNotFoundError:
                pass
    return folder
