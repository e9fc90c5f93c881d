"""The Maya side of ``@dcc/maya``: every ``maya.cmds`` command over ``@dcc/link``, behind a
policy, for headless ``mayapy`` (``startup.py``) and an interactive Maya (``interactive.py``,
loaded by the ``dcc_maya_link`` plug-in or a ``userSetup.py`` snippet). Stdlib only, Python 3.9+.
"""
