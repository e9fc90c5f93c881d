"""One call from the Node side, as a handler sees it, and the ambient ``checkpoint()``."""

from __future__ import annotations

import threading
from typing import Any, Callable, Optional

from .errors import CallCancelled

_local = threading.local()


class Call:
    """A request being served: ``id``, ``method``, ``params``, and its cancellation flag.

    The flag is set by a ``cancel`` frame from the caller, by the loss of the connection that
    carried the call, or by the server stopping. A handler checks it with ``checkpoint()``
    between units of work (frames, objects); nothing can stop a handler that never checks.
    """

    __slots__ = ("id", "method", "params", "connection", "_cancelled", "_reason", "_service")

    def __init__(
        self,
        call_id: Any,
        method: str,
        params: dict,
        connection: Any = None,
        service: Optional[Callable[[], None]] = None,
    ) -> None:
        self.id = call_id
        self.method = method
        self.params = params
        self.connection = connection
        self._cancelled = False
        self._reason = "the call was cancelled"
        # In the blocking loop nobody reads the socket while a handler runs: checkpoint() does.
        self._service = service

    @property
    def cancelled(self) -> bool:
        """True once the call has been cancelled."""
        if self._service is not None and not self._cancelled:
            self._service()
        return self._cancelled

    def cancel(self, reason: str = "the call was cancelled") -> None:
        """Sets the flag (any thread)."""
        if not self._cancelled:
            self._reason = reason
            self._cancelled = True

    def checkpoint(self) -> None:
        """Raises ``CallCancelled`` if the call has been cancelled; otherwise returns at once."""
        if self.cancelled:
            raise CallCancelled(f"{self.method} was cancelled: {self._reason}")

    def _emit(self, raw: bytes) -> None:
        """Sends raw bytes on the call's connection ahead of its reply. For protocol tests."""
        self.connection.send_raw(raw)


def current_call() -> Optional[Call]:
    """The call whose handler is running on this thread, or None."""
    return getattr(_local, "call", None)


def checkpoint() -> None:
    """``current_call().checkpoint()``, and nothing outside a handler."""
    call = current_call()
    if call is not None:
        call.checkpoint()


def _enter(call: Call) -> Optional[Call]:
    previous = getattr(_local, "call", None)
    _local.call = call
    return previous


def _leave(previous: Optional[Call]) -> None:
    _local.call = previous
