"""The stand-in's process state (not a Maya module)."""

import os
import queue

# "standalone" under bin/mayapy (cmds work after maya.standalone.initialize()), "interactive"
# under bin/maya-gui.
mode = os.environ.get("DCC_MAYA_STAND_IN_MODE", "standalone")
initialized = mode == "interactive"
uninitialized = False
idle_queue = queue.Queue()


def run_idle(timeout):
    """Runs one queued idle item on the calling (main) thread; False when none came."""
    try:
        function, args, kwargs, box, done = idle_queue.get(timeout=timeout)
    except queue.Empty:
        return False
    try:
        box["result"] = function(*args, **kwargs)
    except BaseException as error:  # noqa: BLE001 - handed to the waiting thread
        box["error"] = error
    finally:
        done.set()
    return True
