"""Serves ``@dcc/link`` from an interactive Blender, so the toolkit can attach to it.

Launched by the Node side (``DCC_LINK_*`` in the environment) it uses ``LinkConfig.from_env()``.
Otherwise it makes a private 0700 folder (``DCC_BLENDER_LINK_DIR`` when set, so a client knows
where to look; else a new one under ``XDG_RUNTIME_DIR`` or the temp folder) with a Unix socket
and a random token, writes ``connection.json`` ({"socket", "token", "pid"}, 0600) there and
prints its path. The data folder is ``DCC_BLENDER_DATA_DIR`` if set, else the
add-on preference, else ``~/dcc-data``.
"""

bl_info = {
    "name": "DCC Link",
    "author": "dcc-mcp-toolkit",
    "version": (0, 1, 0),
    "blender": (3, 4, 0),
    "location": "Runs in the background; see the system console for connection.json",
    "description": "Lets the dcc-mcp-toolkit drive this Blender through @dcc/link",
    "category": "System",
}

import os
import sys

import bpy

PUMP_INTERVAL = 0.01
PUMP_BUDGET = 0.01
_state = {"server": None, "attach": None, "folder": None, "prepare": None}


def _find_paths():
    """Puts dcc_link and dcc_blender on sys.path: DCC_LINK_PYTHON_PATH, or the repository
    layout beside this add-on (packages/blender/python/addons -> packages/link/python)."""
    here = os.path.dirname(os.path.realpath(__file__))
    blender_python = os.path.dirname(os.path.dirname(here))
    link = os.environ.get("DCC_LINK_PYTHON_PATH") or os.path.join(
        os.path.dirname(os.path.dirname(blender_python)), "link", "python"
    )
    for folder in (blender_python, here, link):
        if os.path.isdir(folder) and folder not in sys.path:
            sys.path.insert(0, folder)
    try:
        import dcc_link  # noqa: F401
    except ImportError:
        raise ImportError(
            "dcc_link not found: set DCC_LINK_PYTHON_PATH to the folder that holds dcc_link "
            "(packages/link/python in the toolkit) before starting Blender"
        ) from None
    try:
        import dcc_blender  # noqa: F401
    except ImportError:
        raise ImportError(
            "dcc_blender not found: install the add-on from packages/blender/python/addons "
            "(symlink it) or put packages/blender/python on sys.path"
        ) from None


class DccLinkPreferences(bpy.types.AddonPreferences):
    bl_idname = __name__

    data_dir: bpy.props.StringProperty(
        name="Data folder",
        description="Files the toolkit may read and write (DCC_BLENDER_DATA_DIR overrides it)",
        subtype="DIR_PATH",
        default=os.path.join(os.path.expanduser("~"), "dcc-data"),
    )

    def draw(self, context):
        self.layout.prop(self, "data_dir")
        if _state["folder"]:
            self.layout.label(text=f"connection.json in {_state['folder']}")


def _data_dir():
    env = os.environ.get("DCC_BLENDER_DATA_DIR")
    if env:
        return env
    try:
        return bpy.context.preferences.addons[__name__].preferences.data_dir
    except (KeyError, AttributeError):
        return os.path.join(os.path.expanduser("~"), "dcc-data")


def _private_config():
    from dcc_link import AttachFolder

    attach = AttachFolder("DCC_BLENDER_LINK_DIR", "dcc-blender-")
    print(f"DCC Link: connection details in {attach.connection_file}", flush=True)
    _state["attach"] = attach
    _state["folder"] = attach.folder
    return attach.config


def _tick():
    server = _state["server"]
    if server is None:
        return None
    prepare = _state["prepare"]
    if prepare is not None:
        # bpy.data is restricted while add-ons register: the first tick confines the outputs.
        _state["prepare"] = None
        prepare()
    if server.stopping:
        server.stop()
        _state["server"] = None
        return None
    server.pump(PUMP_BUDGET)
    return PUMP_INTERVAL


def register():
    bpy.utils.register_class(DccLinkPreferences)
    _find_paths()
    from dcc_link import LinkConfig, PumpServer, launched_by_link

    from dcc_blender.handlers import build_dispatcher, prepare
    from dcc_blender.policy import Policy

    launched = launched_by_link()
    config = LinkConfig.from_env() if launched else _private_config()
    data_dir = os.path.abspath(os.path.expanduser(_data_dir()))
    os.makedirs(data_dir, mode=0o700, exist_ok=True)
    policy = Policy(data_dir, Policy.from_env({**os.environ, "DCC_BLENDER_DATA_DIR": data_dir}).allow)
    _state["prepare"] = lambda: prepare(policy)
    server = PumpServer(build_dispatcher(policy), config).start(announce=launched)
    _state["server"] = server
    bpy.app.timers.register(_tick, first_interval=0.0, persistent=True)


def unregister():
    server = _state["server"]
    _state["server"] = None
    if bpy.app.timers.is_registered(_tick):
        bpy.app.timers.unregister(_tick)
    if server is not None:
        server.stop()
    try:
        from dcc_blender import render, unsaved

        render.remove_load_handler()
        unsaved.remove_load_handler()
    except ImportError:
        pass
    attach = _state["attach"]
    if attach is not None:
        attach.remove()
        _state["attach"] = None
        _state["folder"] = None
    bpy.utils.unregister_class(DccLinkPreferences)
