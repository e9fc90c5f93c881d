"""A host for the kit's tests: plain Python, its commands from ``kit-commands.json``.

``kit_host.py`` serves the link as a launched host (``serve_blocking``); ``kit_host.py attach
FOLDER`` serves it as a DCC the user runs, writing ``connection.json`` in FOLDER.
"""

import json
import os
import secrets
import sys
import time

from dcc_link import (
    Dispatcher,
    HandlerError,
    LinkConfig,
    checkpoint,
    load_command_specs,
    register_commands,
    serve_blocking,
    write_connection_file,
)

HERE = os.path.dirname(os.path.abspath(__file__))


def refuse(params, call):
    raise HandlerError("REFUSED", "kit.refuse always refuses", {"rule": "test"})


def wait(params, call):
    print("WAITING", flush=True)
    while True:
        checkpoint()
        time.sleep(0.01)


def hang(params, call):
    print("HANGING", flush=True)
    while True:
        time.sleep(1)


HANDLERS = {
    "kit.echo": lambda params, call: {"params": params},
    "kit.refuse": refuse,
    "kit.wait": wait,
    "kit.hang": hang,
    "kit.pid": lambda params, call: os.getpid(),
}


def main():
    dispatcher = Dispatcher()
    register_commands(dispatcher, load_command_specs(os.path.join(HERE, "kit-commands.json")), HANDLERS)
    # Raw methods beside the specs: what an adapter's own handlers call, and a transaction's
    # begin and end over a one-value state.
    dispatcher.register("raw.params", lambda params, call: {"params": params})
    state = {"value": 0, "objects": 0, "mark": None, "calls": []}
    dispatcher.register("state.set", lambda params, call: state.update(value=params["value"]))
    dispatcher.register("state.get", lambda params, call: state["value"])

    # A scene of objects: `kit.add` makes one (taking `seconds`, ignoring a cancel, as a real
    # DCC's command does), `kit.count` reads how many there are.
    def add(params, call):
        time.sleep(params.get("seconds", 0))
        state["objects"] += 1
        return state["objects"]

    dispatcher.register("kit.add", add)
    dispatcher.register("kit.count", lambda params, call: state["objects"])

    # The transaction methods this process received, in order (`tx.calls` answers them).
    dispatcher.register("tx.calls", lambda params, call: list(state["calls"]))

    def tx_begin(params, call):
        state["calls"].append("begin")
        state["mark"] = (params["label"], state["value"], state["objects"])

    def tx_end(params, call):
        state["calls"].append("end")
        if state["mark"] is None:
            raise HandlerError("NO_TRANSACTION", "no transaction is open")
        label, value, objects = state["mark"]
        state["mark"] = None
        if params["rollback"]:
            # A slow undo: long enough for a read sent meanwhile to see the scene half undone.
            time.sleep(params.get("seconds", 0.3))
            state["value"] = value
            state["objects"] = objects
            return {"rolledBack": True}
        return {"rolledBack": False, "undoStep": label}

    dispatcher.register("tx.begin", tx_begin)
    dispatcher.register("tx.end", tx_end)
    dispatcher.register("tx.odd", lambda params, call: "not a report")
    # A recovery copy of the state in KIT_RECOVERY_DIR (each save also appends to saves.log).
    recovery_dir = os.environ.get("KIT_RECOVERY_DIR", "")

    def rec_save(params, call):
        with open(os.path.join(recovery_dir, "copy.json"), "w") as copy:
            json.dump({"value": state["value"]}, copy)
        with open(os.path.join(recovery_dir, "saves.log"), "a") as log:
            log.write("%s\n" % state["value"])
        return {"saved": True}

    def rec_open(params, call):
        path = os.path.join(recovery_dir, "copy.json")
        if not os.path.exists(path):
            return {"opened": False}
        with open(path) as copy:
            state["value"] = json.load(copy)["value"]
        return {"opened": True}

    dispatcher.register("rec.save", rec_save)
    dispatcher.register("rec.open", rec_open)
    if len(sys.argv) > 2 and sys.argv[1] == "attach":
        folder = sys.argv[2]
        socket_path = os.path.join(folder, "link.sock")
        token = secrets.token_urlsafe(32)
        config = LinkConfig(token=token, socket_path=socket_path)
        write_connection_file(folder, socket_path, token)
        serve_blocking(dispatcher, config, announce=False)
    else:
        serve_blocking(dispatcher)


main()
