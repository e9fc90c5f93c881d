"""The dispatch table: handlers registered by name, and exceptions mapped to error replies."""

from __future__ import annotations

import sys
import traceback
from typing import Any, Callable, Dict, List, Optional

from .call import Call, _enter, _leave
from .errors import HandlerError

UNKNOWN_METHOD = "UNKNOWN_METHOD"
HANDLER_FAILED = "HANDLER_FAILED"

Handler = Callable[[dict, Call], Any]


def error_reply(call_id: Any, code: str, message: str, *, started: bool, **extra: Any) -> dict:
    """An ``error`` frame. ``started`` tells the caller whether the handler ran at all."""
    error = {"code": code, "message": message}
    error.update({key: value for key, value in extra.items() if value is not None})
    return {"type": "error", "id": call_id, "error": error, "started": started}


class Dispatcher:
    """Maps method names to handlers ``handler(params, call) -> JSON value``."""

    def __init__(self) -> None:
        self._handlers: Dict[str, Handler] = {}

    def register(self, name: str, handler: Handler) -> Handler:
        """Adds a handler; a name can be registered once."""
        if not isinstance(name, str) or not name:
            raise TypeError("a handler name must be a non-empty string")
        if name in self._handlers:
            raise ValueError(f"a handler named {name!r} is already registered")
        if not callable(handler):
            raise TypeError(f"the handler for {name!r} is not callable")
        self._handlers[name] = handler
        return handler

    def handler(self, name: Optional[str] = None) -> Callable[[Handler], Handler]:
        """Decorator form of ``register``; the function's name is the default method name."""

        def decorate(function: Handler) -> Handler:
            return self.register(name or function.__name__, function)

        return decorate

    def names(self) -> List[str]:
        """Registered method names, sorted."""
        return sorted(self._handlers)

    def run(self, call: Call) -> dict:
        """Runs the call's handler and returns the reply frame. Never raises for an Exception:
        a ``HandlerError`` keeps its code and data, anything else becomes ``HANDLER_FAILED``
        with the exception's type (its traceback goes to the host's stderr, not to the caller)."""
        handler = self._handlers.get(call.method)
        if handler is None:
            return error_reply(
                call.id, UNKNOWN_METHOD, f"no handler named {call.method!r}", started=False
            )
        previous = _enter(call)
        try:
            result = handler(call.params, call)
        except HandlerError as error:
            return error_reply(call.id, error.code, error.message, started=True, data=error.data)
        except Exception as error:  # the caller gets the failure; the host keeps serving
            traceback.print_exc(file=sys.stderr)
            return error_reply(
                call.id,
                HANDLER_FAILED,
                f"{type(error).__name__}: {error}",
                started=True,
                type=type(error).__name__,
            )
        finally:
            _leave(previous)
        return {"type": "result", "id": call.id, "result": result}
