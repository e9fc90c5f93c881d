"""A Maya scripted plug-in that lets the toolkit drive this Maya through ``@dcc/link``.

Put this folder on ``MAYA_PLUG_IN_PATH`` and load ``dcc_maya_link`` in the Plug-in Manager
(or ``cmds.loadPlugin("dcc_maya_link")``); unloading it stops the link and removes its
connection file. ``dcc_maya`` and ``dcc_link`` are found beside it in the toolkit's layout
(``packages/maya/python`` and ``packages/link/python``) or through ``DCC_LINK_PYTHON_PATH``.
"""

import os
import sys

maya_useNewAPI = True

_service = {"link": None}


def _find_paths():
    here = os.path.dirname(os.path.realpath(__file__))
    maya_python = os.path.dirname(here)
    link = os.environ.get("DCC_LINK_PYTHON_PATH") or os.path.join(
        os.path.dirname(os.path.dirname(maya_python)), "link", "python"
    )
    for folder in (maya_python, link):
        if os.path.isdir(folder) and folder not in sys.path:
            sys.path.insert(0, folder)


def initializePlugin(mobject):
    import maya.api.OpenMaya as om

    om.MFnPlugin(mobject, "dcc-mcp-toolkit", "0.1.0", "Any")
    _find_paths()
    from dcc_maya.interactive import InteractiveLink

    _service["link"] = InteractiveLink().start()


def uninitializePlugin(mobject):
    import maya.api.OpenMaya as om

    om.MFnPlugin(mobject)
    link = _service["link"]
    _service["link"] = None
    if link is not None:
        link.stop()
