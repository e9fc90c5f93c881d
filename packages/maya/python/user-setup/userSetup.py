# A userSetup.py that serves the toolkit's link from this Maya without the plug-in. Copy it into
# your Maya scripts folder (or merge it into your own userSetup.py) and set DCC_MAYA_PYTHON to
# the toolkit's packages/maya/python folder (DCC_LINK_PYTHON_PATH to packages/link/python if the
# link package is not beside it).
import os
import sys

import maya.utils

_python = os.environ.get("DCC_MAYA_PYTHON")
if _python:
    _link = os.environ.get("DCC_LINK_PYTHON_PATH") or os.path.join(
        os.path.dirname(os.path.dirname(_python)), "link", "python"
    )
    for _folder in (_python, _link):
        if _folder not in sys.path:
            sys.path.insert(0, _folder)
    # Deferred: Maya runs userSetup.py before its main loop; the link starts once Maya is idle.
    maya.utils.executeDeferred(lambda: __import__("dcc_maya.user_setup").user_setup.start())
