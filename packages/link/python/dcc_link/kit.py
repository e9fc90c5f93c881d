"""``serve``: the whole start-up of a DCC behind ``@dcc/linked-adapter`` in one call.

    from dcc_link import serve
    serve("commands.json", handlers, transaction=Transaction(...), data_folder=DATA_DIR_ENV)

It loads the spec file (a relative path is taken from the folder of the script that calls it),
reads the data folder from the environment (``DCC_DATA_DIR``, which the adapter's
``prepareLinkedLaunch`` sets), registers one handler per spec (checked against its ``args``),
registers the transaction's two link methods outside the specs (so scripts never see them),
turns a ``DataFolderRefusal`` or ``PolicyRefusal`` a handler lets escape into a ``POLICY``
answer, and serves until the adapter ends the process. ``command_dispatcher`` is the same
without serving, for a DCC that pumps a ``PumpServer`` from its own loop.
"""

from __future__ import annotations

import os
import sys
from typing import Any, Callable, Mapping, Optional, Sequence, Union

from .blocking import serve_blocking
from .commands import Handler, load_command_specs, register_commands
from .data_folder import DataFolder, DataFolderRefusal
from .dispatch import Dispatcher
from .errors import HandlerError
from .policy import POLICY_ERROR_CODE, PolicyRefusal
from .transaction import TRANSACTION_METHODS, Transaction

# The environment variable that names the data folder (``prepareLinkedLaunch``'s default).
DATA_DIR_ENV = "DCC_DATA_DIR"

Specs = Union[str, Sequence[Mapping[str, Any]]]
Handlers = Union[Mapping[str, Handler], Callable[[Optional[DataFolder]], Mapping[str, Handler]]]

_current: dict = {"folder": None, "transaction": None}


def wrote(path: str) -> str:
    """Notes a file a handler wrote in the served transaction's ``filesWritten`` and returns its
    name for results: relative to the data folder when inside it, else absolute."""
    transaction = _current["transaction"]
    if transaction is not None:
        return transaction.wrote(path)
    folder = _current["folder"]
    path = os.path.abspath(path)
    return folder.relative(path) if folder is not None and folder.inside(path) else path


def _data_folder(data_folder: Union[None, str, DataFolder]) -> Optional[DataFolder]:
    if data_folder is None or isinstance(data_folder, DataFolder):
        return data_folder
    value = os.environ.get(data_folder, "")
    if not os.path.isabs(value) or not os.path.isdir(value):
        raise SystemExit(
            f"dcc_link.serve: set {data_folder} to the absolute path of an existing data folder "
            f"(got {value!r}); prepareLinkedLaunch in @dcc/linked-adapter sets it from dataDir"
        )
    return DataFolder(value)


def _from_caller(specs: Specs, depth: int) -> Specs:
    """A relative spec path taken from the folder of the script ``depth`` frames up."""
    if not isinstance(specs, str) or os.path.isabs(specs):
        return specs
    caller = sys._getframe(depth + 1).f_globals.get("__file__")
    return os.path.join(os.path.dirname(os.path.abspath(caller)) if caller else os.getcwd(), specs)


def _refusals_as_policy(handler: Handler) -> Handler:
    def guarded(params, call):
        try:
            return handler(params, call)
        except DataFolderRefusal as refusal:
            data = {"rule": refusal.rule, "argument": refusal.argument}
            raise HandlerError(POLICY_ERROR_CODE, refusal.message, data) from None
        except PolicyRefusal as refusal:
            raise refusal.handler_error() from None

    guarded.__name__ = getattr(handler, "__name__", "handler")
    return guarded


def command_dispatcher(
    specs: Specs,
    handlers: Handlers,
    transaction: Optional[Transaction] = None,
    data_folder: Union[None, str, DataFolder] = None,
    wrap: Optional[Callable[[Handler], Handler]] = None,
    transaction_methods: Sequence[str] = TRANSACTION_METHODS,
) -> Dispatcher:
    """The ``Dispatcher`` ``serve`` serves (see ``serve`` for the arguments)."""
    specs = _from_caller(specs, 1)
    if isinstance(specs, str):
        specs = load_command_specs(specs)
    folder = _data_folder(data_folder)
    table = handlers(folder) if callable(handlers) else handlers
    dispatcher = Dispatcher()

    def wrapped(handler: Handler) -> Handler:
        return _refusals_as_policy(wrap(handler) if wrap is not None else handler)

    register_commands(dispatcher, list(specs), table, wrap=wrapped)
    if transaction is not None:
        transaction.folder = folder
        begin, end = transaction_methods
        dispatcher.register(begin, transaction.begin)
        dispatcher.register(end, transaction.end)
    _current["folder"], _current["transaction"] = folder, transaction
    return dispatcher


def serve(
    specs: Specs,
    handlers: Handlers,
    transaction: Optional[Transaction] = None,
    data_folder: Union[None, str, DataFolder] = None,
    wrap: Optional[Callable[[Handler], Handler]] = None,
    transaction_methods: Sequence[str] = TRANSACTION_METHODS,
) -> None:
    """Registers and serves a DCC's commands until the adapter ends the process.

    - ``specs``: the spec file's path (relative: from the calling script's folder) or the list.
    - ``handlers``: ``{command name: handler(params, call)}``, or a function of the
      ``DataFolder`` (``None`` without one) that returns it.
    - ``transaction``: a ``Transaction``, registered under ``transaction_methods`` (the
      adapter's ``transaction: true``), or ``None`` for none.
    - ``data_folder``: the environment variable naming the data folder (``DATA_DIR_ENV``), a
      ``DataFolder``, or ``None``; a variable unset or not an absolute folder ends the process
      with a message naming it.
    - ``wrap(handler) -> handler``: wraps every command's handler (a policy guard, say), where
      a handler is ``handler(params: dict, call: Call) -> JSON value``.

    Raises ``CommandSpecError`` when a spec has no handler or a handler no spec."""
    specs = _from_caller(specs, 1)
    dispatcher = command_dispatcher(specs, handlers, transaction, data_folder, wrap, transaction_methods)
    serve_blocking(dispatcher)
