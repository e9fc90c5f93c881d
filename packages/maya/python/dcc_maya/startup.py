"""``mayapy``'s start-up script for the ``@dcc/maya`` host (headless Maya)::

    mayapy packages/maya/python/dcc_maya/startup.py

``mayapy`` has no idle loop, so the script itself is the loop: ``serve_blocking`` runs each call
on the main thread between ``maya.standalone.initialize()`` and ``uninitialize()``. The folder
holding ``dcc_link`` comes from ``PYTHONPATH`` or ``DCC_LINK_PYTHON_PATH`` (``DccProcess`` sets
both); the data folder from ``DCC_MAYA_DATA_DIR``.
"""

import os
import sys

_here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
for _folder in (os.environ.get("DCC_LINK_PYTHON_PATH"), _here):
    if _folder and _folder not in sys.path:
        sys.path.insert(0, _folder)


def main() -> int:
    from dcc_link import serve_blocking

    from dcc_maya.handlers import build_dispatcher
    from dcc_maya.policy import Policy, PolicyConfigError

    try:
        policy = Policy.from_env()
    except PolicyConfigError as error:
        sys.stderr.write(f"dcc_maya: {error}\n")
        return 2
    os.makedirs(policy.data_dir, exist_ok=True)
    # Relative paths that Maya resolves against the working folder land in the data folder.
    os.chdir(policy.data_dir)
    import maya.standalone

    maya.standalone.initialize(name="python")
    try:
        import maya.cmds as cmds

        cmds.workspace(directory=policy.data_dir)
        serve_blocking(build_dispatcher(cmds, policy, loop="blocking"))
    finally:
        maya.standalone.uninitialize()
    return 0


if __name__ == "__main__":
    sys.exit(main())
