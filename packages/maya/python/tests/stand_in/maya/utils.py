"""``maya.utils`` (stand-in): the main thread's idle queue."""

import threading

from . import _state


def executeInMainThreadWithResult(function, *args, **kwargs):
    """Runs ``function`` on the main thread at its next idle and waits for the result; called
    on the main thread it runs at once. There are no idle events under ``mayapy``."""
    if _state.mode != "interactive":
        raise RuntimeError("executeInMainThreadWithResult needs an interactive Maya (no idle events in batch mode)")
    if isinstance(function, str):
        raise TypeError("the stand-in only takes callables")
    if threading.current_thread() is threading.main_thread():
        return function(*args, **kwargs)
    box = {}
    done = threading.Event()
    _state.idle_queue.put((function, args, kwargs, box, done))
    done.wait()
    if "error" in box:
        raise box["error"]
    return box.get("result")


def executeDeferred(function, *args, **kwargs):
    """Queues ``function`` for the main thread's next idle without waiting."""
    if _state.mode != "interactive":
        raise RuntimeError("executeDeferred needs an interactive Maya")
    _state.idle_queue.put((function, args, kwargs, {}, threading.Event()))
