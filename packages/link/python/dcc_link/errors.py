"""Errors a handler raises to answer a call with its own code."""

from __future__ import annotations

from typing import Any, Optional

CANCELLED = "CANCELLED"


class HandlerError(Exception):
    """Raise from a handler to fail the call with ``code`` and ``message``; ``data`` must be
    JSON-serializable and is sent along (e.g. the valid values of a bad argument)."""

    def __init__(self, code: str, message: str, data: Optional[Any] = None) -> None:
        super().__init__(message)
        if not isinstance(code, str) or not code:
            raise TypeError("HandlerError code must be a non-empty string")
        self.code = code
        self.message = message
        self.data = data


class CallCancelled(HandlerError):
    """Raised by ``checkpoint()`` once the caller has cancelled the call (or the connection that
    carried it is gone, or the server is stopping)."""

    def __init__(self, message: str = "the call was cancelled") -> None:
        super().__init__(CANCELLED, message)


class LinkConfigError(Exception):
    """The link's settings (environment or arguments) are missing or unsafe."""
