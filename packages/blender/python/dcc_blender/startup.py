"""Blender's start-up script for the ``@dcc/blender`` host.

    blender -b --factory-startup --disable-autoexec --python-exit-code 1 \
        --python packages/blender/python/dcc_blender/startup.py

Under ``-b`` the script itself is the loop (``serve_blocking``): timers never fire there. With a
window (``xvfb-run -a blender --factory-startup --disable-autoexec --python startup.py -- --ui``,
or env ``DCC_BLENDER_LOOP=pump``) a ``PumpServer`` is pumped from ``bpy.app.timers`` on the
main thread. Blender ignores PYTHONPATH, so ``DCC_LINK_PYTHON_PATH`` names dcc_link's folder.
"""

import os
import sys

_here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
_link = os.environ.get("DCC_LINK_PYTHON_PATH")
if not _link:
    sys.stderr.write("dcc_blender: set DCC_LINK_PYTHON_PATH to the folder holding dcc_link\n")
    sys.exit(2)
for _folder in (_here, _link):
    if _folder not in sys.path:
        sys.path.insert(0, _folder)

import signal  # noqa: E402

import bpy  # noqa: E402
from dcc_link import PumpServer, serve_blocking  # noqa: E402

from dcc_blender.handlers import build_dispatcher, prepare  # noqa: E402
from dcc_blender.policy import Policy, PolicyConfigError  # noqa: E402

PUMP_INTERVAL = 0.01
PUMP_BUDGET = 0.01


def _arguments():
    return sys.argv[sys.argv.index("--") + 1 :] if "--" in sys.argv else []


def _policy() -> Policy:
    try:
        policy = Policy.from_env()
    except PolicyConfigError as error:
        sys.stderr.write(f"dcc_blender: {error}\n")
        sys.exit(2)
    os.makedirs(policy.data_dir, exist_ok=True)
    # Defaults that write "next to the current file" or to the working folder land in the data folder.
    os.chdir(policy.data_dir)
    return policy


def serve_pump(dispatcher) -> None:
    """Starts the socket thread and a persistent timer that pumps calls on the main thread; the
    script returns and Blender's own loop keeps running. Blender quits when the link stops."""
    server = PumpServer(dispatcher).start()
    signal.signal(signal.SIGTERM, lambda *_: server.stop())

    def tick():
        if server.stopping:
            server.stop()
            bpy.ops.wm.quit_blender()
            return None
        server.pump(PUMP_BUDGET)
        return PUMP_INTERVAL

    bpy.app.timers.register(tick, first_interval=0.0, persistent=True)


def main() -> None:
    # Blender's Python leaves SIGPIPE at its default on some builds (Debian's 4.3.2): a write to
    # a connection its peer closed (the lane of a script stopped while Blender was busy) would
    # end Blender without a word instead of raising BrokenPipeError, which the link handles.
    signal.signal(signal.SIGPIPE, signal.SIG_IGN)
    policy = _policy()
    prepare(policy)
    dispatcher = build_dispatcher(policy)
    pump = (
        "--ui" in _arguments()
        or os.environ.get("DCC_BLENDER_LOOP") == "pump"
        or not bpy.app.background
    )
    if pump:
        if bpy.app.background:
            sys.stderr.write("dcc_blender: the pump loop needs Blender with a window (no -b): timers never fire under -b\n")
            sys.exit(2)
        serve_pump(dispatcher)
    else:
        serve_blocking(dispatcher)


main()
