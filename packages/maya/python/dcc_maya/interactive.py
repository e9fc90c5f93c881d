"""Serves ``@dcc/link`` from an interactive Maya (the plug-in and the ``userSetup.py`` snippet
use it). A ``PumpServer`` socket thread reads, queues and writes; a driver thread hands
``pump()`` to Maya's main thread through ``maya.utils.executeInMainThreadWithResult``, so every
``maya.cmds`` call runs there. It pumps at least every ``IDLE_PUMP`` seconds even when idle, so
the link's heartbeat sees a main thread that stopped (a modal dialog, a long script).

Launched by the Node side (``DCC_LINK_*`` set) it uses ``LinkConfig.from_env()``. Otherwise it
makes a private 0700 folder (``DCC_MAYA_LINK_DIR`` when set; else a new one under
``XDG_RUNTIME_DIR`` or the temp folder) with a Unix socket and a random token, and writes
``connection.json`` (``{"socket", "token", "pid"}``, 0600) there for ``--maya-attach``. The
data folder is ``DCC_MAYA_DATA_DIR``, else ``~/dcc-data``.
"""

from __future__ import annotations

import os
import sys
import threading
import traceback
from typing import Optional

PUMP_BUDGET = 0.02
IDLE_PUMP = 0.25


class InteractiveLink:
    """The link served from an interactive Maya: ``start()`` on the main thread, ``stop()``."""

    def __init__(self) -> None:
        self.server = None
        self.attach_folder = None
        self.folder: Optional[str] = None
        self.connection_file: Optional[str] = None
        self._stopped = threading.Event()
        self._driver: Optional[threading.Thread] = None

    def start(self) -> "InteractiveLink":
        import maya.cmds as cmds
        from dcc_link import AttachFolder, LinkConfig, PumpServer, launched_by_link

        from .handlers import build_dispatcher
        from .policy import Policy

        launched = launched_by_link()
        if launched:
            config = LinkConfig.from_env()
        else:
            self.attach_folder = AttachFolder("DCC_MAYA_LINK_DIR", "dcc-maya-")
            self.folder = self.attach_folder.folder
            self.connection_file = self.attach_folder.connection_file
            print(f"DCC Link: connection details in {self.connection_file}", flush=True)
            config = self.attach_folder.config
        data_dir = os.path.abspath(os.path.expanduser(os.environ.get("DCC_MAYA_DATA_DIR") or "~/dcc-data"))
        os.makedirs(data_dir, mode=0o700, exist_ok=True)
        policy = Policy(data_dir, Policy.from_env({**os.environ, "DCC_MAYA_DATA_DIR": data_dir}).allow)
        self.server = PumpServer(build_dispatcher(cmds, policy, loop="pump"), config).start(announce=launched)
        self._driver = threading.Thread(target=self._drive, name="dcc-maya-pump", daemon=True)
        self._driver.start()
        return self

    def stop(self) -> None:
        """Stops serving and removes the connection file. Called on the main thread: it does
        not wait for the driver, whose last hand-over runs once the main thread is idle again."""
        self._stopped.set()
        if self.server is not None:
            self.server.stop()
        if self.attach_folder is not None:
            self.attach_folder.remove()

    def _pump(self) -> int:
        if self._stopped.is_set() or self.server is None:
            return 0
        return self.server.pump(PUMP_BUDGET)

    def _drive(self) -> None:
        import maya.utils

        server = self.server
        while not self._stopped.is_set() and not server.stopping:
            server.wait(IDLE_PUMP)
            if self._stopped.is_set():
                break
            try:
                maya.utils.executeInMainThreadWithResult(self._pump)
            except Exception:  # noqa: BLE001 - keep serving; the error goes to Maya's output
                traceback.print_exc(file=sys.stderr)
