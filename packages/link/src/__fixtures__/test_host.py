"""A host for the link's tests: plain Python, no DCC. ``test_host.py blocking|pump``.

Its handlers cover what the tests need: quick answers, typed and unexpected errors, long work
with and without checkpoints, big results, raw bytes ahead of a reply, and a pump loop that can
be told to stop pumping (a main thread that no longer services the link).
"""

import base64
import os
import signal
import sys
import time

from dcc_link import Dispatcher, HandlerError, PumpServer, checkpoint, serve_blocking

dispatcher = Dispatcher()
state = {"stalled": False}


@dispatcher.handler()
def echo(params, call):
    return params


@dispatcher.handler()
def noop(params, call):
    return None


@dispatcher.handler()
def sleep(params, call):
    # Never checks for cancellation: only the process's end stops it. With a gate, it sleeps
    # until that file exists (at most `seconds`), so a test decides when the answer comes.
    if params.get("announce"):
        print("SLEEPING", flush=True)
    gate = params.get("gate")
    until = time.monotonic() + params["seconds"]
    if gate is None:
        time.sleep(params["seconds"])
    while gate is not None and not os.path.exists(gate) and time.monotonic() < until:
        time.sleep(0.01)
    return "slept"


@dispatcher.handler()
def work(params, call):
    if params.get("announce"):
        print("WORKING", flush=True)
    done = 0
    for _ in range(params["units"]):
        checkpoint()
        time.sleep(params.get("unitSeconds", 0.01))
        done += 1
    return done


@dispatcher.handler()
def fail(params, call):
    raise HandlerError(params.get("code", "NO_OBJECT"), params.get("message", "nothing"), params.get("data"))


@dispatcher.handler()
def crash(params, call):
    raise ValueError("boom")


@dispatcher.handler()
def big(params, call):
    # With a gate, the answer waits for that file to exist (at most 30 s): a test can make it late.
    gate = params.get("gate")
    until = time.monotonic() + 30
    while gate is not None and not os.path.exists(gate) and time.monotonic() < until:
        time.sleep(0.01)
    return "x" * params["bytes"]


@dispatcher.handler()
def deep(params, call):
    """A value nested ``depth`` levels deep: too deep for json.dumps past the recursion limit."""
    value = []
    for _ in range(params["depth"]):
        value = [value]
    return value


@dispatcher.handler()
def nan(params, call):
    return float("nan")


@dispatcher.handler()
def emit(params, call):
    for raw in params["frames"]:
        call._emit(base64.b64decode(raw))
    return params.get("reply")


@dispatcher.handler()
def env(params, call):
    return {name: os.environ.get(name) for name in params["names"]}


@dispatcher.handler()
def stall(params, call):
    state["stalled"] = True
    return True


@dispatcher.handler()
def info(params, call):
    return {"pid": os.getpid(), "ppid": os.getppid(), "tmpdir": os.environ.get("TMPDIR")}


@dispatcher.handler()
def read_file(params, call):
    """What the host sees of a path: its text, or the error's name (the sandbox tests)."""
    try:
        with open(params["path"], encoding="utf-8") as handle:
            return {"text": handle.read()}
    except OSError as error:
        return {"error": type(error).__name__}


@dispatcher.handler()
def write_file(params, call):
    """Writes a text file; reports the error's name instead of failing."""
    try:
        with open(params["path"], "w", encoding="utf-8") as handle:
            handle.write(params["text"])
        return {"written": True}
    except OSError as error:
        return {"error": type(error).__name__}


@dispatcher.handler()
def connect(params, call):
    """Tries a TCP connection to 127.0.0.1:port; reports the error's name when it fails."""
    import socket

    try:
        socket.create_connection(("127.0.0.1", params["port"]), timeout=5).close()
        return {"connected": True}
    except OSError as error:
        return {"error": type(error).__name__}


def pump_loop():
    server = PumpServer(dispatcher).start()
    signal.signal(signal.SIGTERM, lambda *_: server.stop())
    while not server.stopping:
        if state["stalled"]:
            time.sleep(0.05)
            continue
        server.wait(0.05)
        server.pump(0.05)
    server.stop()


if __name__ == "__main__":
    if (sys.argv[1] if len(sys.argv) > 1 else "blocking") == "pump":
        pump_loop()
    else:
        serve_blocking(dispatcher)
