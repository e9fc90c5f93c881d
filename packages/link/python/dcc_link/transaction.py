"""A script's transaction on the DCC's own undo, for ``serve(transaction=...)`` (see
``DccTransaction`` in ``@dcc/executor`` and ``transaction`` in ``@dcc/linked-adapter``).

The DCC gives three operations; the kit registers the link methods, keeps the label, notes the
files handlers write, and builds the report the adapter expects:

- ``begin(label)`` opens an undo chunk (FreeCAD: ``doc.openTransaction(label)``);
- ``commit(label) -> bool`` closes it and says whether it holds a change (``False``: the script
  changed nothing the DCC can undo, reported ``nothing_to_undo``);
- ``undo(label)`` undoes the chunk just closed (only on rollback, only after ``commit`` said True).

``commit`` or ``undo`` may raise ``TransactionRefusal(reason, detail)`` (``history_cut`` when a
file was opened meanwhile, say); any other exception is reported ``failed`` with its message.
"""

from __future__ import annotations

import os
from typing import Any, Callable, Dict, List, Optional

from .data_folder import DataFolder

# The link methods ``serve`` registers and ``transaction: true`` of the adapter calls. They are
# in no spec file, so scripts never see them.
TRANSACTION_METHODS = ("dcc.transaction.begin", "dcc.transaction.end")


class TransactionRefusal(Exception):
    """Raised by ``commit`` or ``undo``: why the script's changes cannot be kept as one step or
    undone (``reason`` one of the adapter's: ``history_cut``, ``nothing_to_undo``, ``no_undo``,
    ``failed``...), ``detail`` in words an agent can act on."""

    def __init__(self, reason: str, detail: str) -> None:
        super().__init__(detail)
        self.reason = reason
        self.detail = detail


class Transaction:
    """One script at a time: ``begin`` and ``end`` are the handlers of the two link methods."""

    def __init__(
        self,
        begin: Callable[[str], Any],
        commit: Callable[[str], bool],
        undo: Callable[[str], Any],
    ) -> None:
        self._begin = begin
        self._commit = commit
        self._undo = undo
        self.folder: Optional[DataFolder] = None
        self.label: Optional[str] = None
        self.files: List[str] = []

    def wrote(self, path: str) -> str:
        """Notes a file a handler wrote and returns its name for results: relative to the data
        folder when inside it, else absolute. Listed in the report's ``filesWritten`` (undo
        leaves files alone, so they are listed after a rollback too)."""
        path = os.path.abspath(path)
        name = self.folder.relative(path) if self.folder and self.folder.inside(path) else path
        if self.label is not None and name not in self.files:
            self.files.append(name)
        return name

    def begin(self, params: Dict[str, Any], call: Any) -> None:
        label = str((params or {}).get("label") or "script").replace("\n", " ")[:80]
        self.label, self.files = None, []
        self._begin(label)
        self.label = label

    def end(self, params: Dict[str, Any], call: Any) -> Dict[str, Any]:
        label, self.label = self.label, None
        files, self.files = self.files, []
        extra: Dict[str, Any] = {"filesWritten": files} if files else {}
        if label is None:
            return {"rolledBack": False, "reason": "failed", "detail": "no transaction was open"}
        try:
            if not self._commit(label):
                detail = "the script changed nothing that can be undone"
                return {"rolledBack": False, "reason": "nothing_to_undo", "detail": detail, **extra}
            if not (params or {}).get("rollback"):
                return {"rolledBack": False, "undoStep": label, **extra}
            self._undo(label)
            return {"rolledBack": True, **extra}
        except TransactionRefusal as refusal:
            return {"rolledBack": False, "reason": refusal.reason, "detail": refusal.detail, **extra}
        except Exception as error:  # the DCC's own failure, reported rather than raised
            detail = f"{type(error).__name__}: {error}"
            return {"rolledBack": False, "reason": "failed", "detail": detail, **extra}
