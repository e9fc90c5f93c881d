"""Puts dcc_maya, dcc_link and the stand-in ``maya`` package on sys.path for the unit tests."""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
MAYA_PYTHON = os.path.dirname(HERE)
LINK_PYTHON = os.path.join(os.path.dirname(os.path.dirname(MAYA_PYTHON)), "link", "python")
STAND_IN = os.path.join(HERE, "stand_in")
for folder in (MAYA_PYTHON, LINK_PYTHON, STAND_IN):
    if folder not in sys.path:
        sys.path.insert(0, folder)
