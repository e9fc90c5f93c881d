"""The tiny DCC's start-up script: the adapter launches it with ``dcc_link`` and this package on
``PYTHONPATH`` and the data folder in ``DCC_DATA_DIR``; it serves until the adapter ends it."""

from dcc_link import DATA_DIR_ENV, serve

from tiny_dcc.commands import Scene

scene = Scene()
serve("commands.json", scene.handlers, transaction=scene.transaction(), data_folder=DATA_DIR_ENV)
