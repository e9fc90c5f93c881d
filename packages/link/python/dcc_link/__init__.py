"""DCC-neutral Python side of ``@dcc/link`` (stdlib only, Python 3.9+).

Register handlers on a ``Dispatcher``, then serve them with one of two loop styles:
``serve_blocking`` (the start-up script is the loop, e.g. ``blender -b``) or ``PumpServer``
(a socket thread, and ``pump()`` called from the host's main-thread timer). A handler checks
for a cancel with ``checkpoint()`` (importable from here). ``register_commands`` binds the
commands of a JSON spec file (shared with ``@dcc/linked-adapter``) to handlers, checking each
call's arguments, and ``serve`` is the whole start-up of such a DCC in one call (the data folder
from the environment, a ``Transaction`` on the DCC's undo, ``image_result`` answers); ``DataFolder`` confines file paths to the data folder, and ``PolicyRefusal``,
``PolicyConfigError`` and ``read_policy_env`` are what the DCC sides' policies share.
"""

from .attach_folder import AttachFolder, launched_by_link
from .blocking import current_server, serve_blocking
from .call import Call, checkpoint, current_call
from .commands import (
    CommandSpecError,
    check_args,
    check_command_specs,
    load_command_specs,
    register_commands,
)
from .codec import DEFAULT_MAX_FRAME_BYTES, FrameDecoder, FrameError, encode_frame
from .config import LinkConfig
from .connection_file import write_connection_file
from .data_folder import DATA_FOLDER_RULE, DataFolder, DataFolderRefusal
from .image import encode_png, image_result
from .kit import DATA_DIR_ENV, command_dispatcher, serve, wrote
from .dispatch import Dispatcher
from .errors import CallCancelled, HandlerError, LinkConfigError
from .policy import (
    POLICY_ERROR_CODE,
    PolicyConfigError,
    PolicyRefusal,
    policy_data_folder,
    read_policy_env,
)
from .pump import PumpServer
from .ready import READY_PREFIX
from .transaction import TRANSACTION_METHODS, Transaction, TransactionRefusal

__all__ = [
    "AttachFolder",
    "DATA_DIR_ENV",
    "DATA_FOLDER_RULE",
    "DEFAULT_MAX_FRAME_BYTES",
    "POLICY_ERROR_CODE",
    "READY_PREFIX",
    "TRANSACTION_METHODS",
    "Call",
    "CallCancelled",
    "CommandSpecError",
    "DataFolder",
    "DataFolderRefusal",
    "Dispatcher",
    "FrameDecoder",
    "FrameError",
    "HandlerError",
    "LinkConfig",
    "LinkConfigError",
    "PolicyConfigError",
    "PolicyRefusal",
    "PumpServer",
    "Transaction",
    "TransactionRefusal",
    "check_args",
    "check_command_specs",
    "checkpoint",
    "command_dispatcher",
    "current_call",
    "current_server",
    "encode_frame",
    "encode_png",
    "image_result",
    "launched_by_link",
    "load_command_specs",
    "policy_data_folder",
    "read_policy_env",
    "register_commands",
    "serve",
    "serve_blocking",
    "write_connection_file",
    "wrote",
]
