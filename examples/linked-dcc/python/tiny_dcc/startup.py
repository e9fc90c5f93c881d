"""The tiny DCC's start-up script: ``python3 startup.py`` with ``dcc_link`` and this folder's
parent on ``PYTHONPATH`` and ``TINY_DCC_DATA_DIR`` set (the adapter launches it so). It serves
the link until the adapter ends it."""

import os
import sys

from dcc_link import DataFolder, Dispatcher, load_command_specs, register_commands, serve_blocking

from tiny_dcc.commands import Scene

HERE = os.path.dirname(os.path.abspath(__file__))


def main() -> None:
    data_dir = os.environ.get("TINY_DCC_DATA_DIR")
    if not data_dir:
        sys.stderr.write("tiny_dcc: set TINY_DCC_DATA_DIR to the absolute path of the data folder\n")
        sys.exit(2)
    scene = Scene(DataFolder(data_dir))
    dispatcher = Dispatcher()
    register_commands(dispatcher, load_command_specs(os.path.join(HERE, "commands.json")), scene.handlers())
    serve_blocking(dispatcher)


main()
