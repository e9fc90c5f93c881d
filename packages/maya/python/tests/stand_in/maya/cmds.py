"""``maya.cmds`` (stand-in): strict about commands, flags and value types, as the catalog data
says; behaviour comes from the simulated scene when the tests serve one."""

import http.client
import json
import os
import re
import signal
import sys
import threading
import time

from . import _render, _state

_HERE = os.path.dirname(os.path.abspath(__file__))
# stand_in/maya -> packages/maya/python/tests/stand_in -> the repository -> ../shared/data
_DEFAULT_COMMANDS = os.path.join(_HERE, *([".."] * 6), "..", "shared", "data", "maya-commands.json")
_POSITIONAL = re.compile(r"^arg\d+$")
_commands = None
_scene_names = None


def _catalog():
    global _commands
    if _commands is None:
        path = os.environ.get("DCC_MAYA_STAND_IN_COMMANDS") or os.path.normpath(_DEFAULT_COMMANDS)
        with open(path, encoding="utf-8") as handle:
            _commands = {record["name"]: record for record in json.load(handle)}
    return _commands


def _scene(method, path, body=None):
    url = os.environ.get("DCC_MAYA_STAND_IN_SCENE")
    if not url:
        return None
    host, port = url.replace("http://", "").rstrip("/").split(":")
    connection = http.client.HTTPConnection(host, int(port), timeout=60)
    try:
        payload = None if body is None else json.dumps(body)
        connection.request(method, path, payload, {"Content-Type": "application/json"})
        return json.loads(connection.getresponse().read())
    finally:
        connection.close()


def _short_names():
    global _scene_names
    if _scene_names is None:
        _scene_names = _scene("GET", "/specs") or {}
    return _scene_names


# ---- types -------------------------------------------------------------------------------


def _split(text):
    """Top-level comma-separated parts of ``A, B[C, D]``."""
    parts, depth, start = [], 0, 0
    for index, char in enumerate(text):
        if char == "[":
            depth += 1
        elif char == "]":
            depth -= 1
        elif char == "," and depth == 0:
            parts.append(text[start:index].strip())
            start = index + 1
    parts.append(text[start:].strip())
    return [part for part in parts if part]


def _accepts(annotation, value, query):
    match = re.match(r"^(\w+)(?:\[(.*)\])?$", annotation.strip())
    if not match:
        return True
    head, inner = match.group(1), match.group(2)
    parts = _split(inner) if inner else []
    if head == "Queryable":
        return (query and value is True) or _accepts(parts[0], value, query)
    if head == "Multiuse":
        if isinstance(value, (list, tuple)) and value and not _accepts(parts[0], value, query):
            return all(_accepts(parts[0], item, query) for item in value)
        return _accepts(parts[0], value, query)
    if head in ("Tuple", "List"):
        if not isinstance(value, (list, tuple)):
            return False
        if head == "List" or parts[-1:] == ["..."]:
            return all(_accepts(parts[0], item, query) for item in value)
        return len(value) == len(parts) and all(_accepts(t, v, query) for t, v in zip(parts, value))
    if head in ("Range", "NullableRange"):
        if isinstance(value, (list, tuple)):
            return 1 <= len(value) <= 2 and all(
                (item is None and head == "NullableRange") or _accepts(parts[0], item, query) for item in value
            )
        return _accepts(parts[0], value, query)
    if head == "Union":
        return any(_accepts(part, value, query) for part in parts)
    if head == "Callable":
        return callable(value) or isinstance(value, str)
    if head == "bool":
        return isinstance(value, (bool, int))
    if head == "int":
        return isinstance(value, int)
    if head == "float":
        return isinstance(value, (int, float))
    if head == "str":
        return isinstance(value, str)
    return True  # Any, and names the data does not spell out


# ---- commands ------------------------------------------------------------------------------


def _fault(name, flags):
    if os.environ.get("DCC_MAYA_STAND_IN_FAULTS") != "1" or name != "polySphere":
        return
    if flags.get("name") == "stand_in_crash":
        sys.stderr.write("stand-in Maya: crashing on purpose\n")
        sys.stderr.flush()
        os.kill(os.getpid(), signal.SIGSEGV)
    if flags.get("name") == "stand_in_hang":
        sys.stderr.write("stand-in Maya: stuck in a command\n")
        sys.stderr.flush()
        while True:  # a stuck command: never returns, never checks for a cancel
            time.sleep(1)


def _make(name, record):
    params = record["params"]
    by_name = {p["name"]: p for p in params if not p.get("variadic") and not _POSITIONAL.match(p["name"])}
    variadic = any(p.get("variadic") for p in params)
    positional = [p for p in params if _POSITIONAL.match(p["name"])]

    def command(*args, **flags):
        if threading.current_thread() is not threading.main_thread():
            raise RuntimeError(f"maya.cmds.{name} was called outside the main thread")
        if not _state.initialized:
            raise RuntimeError("maya.standalone.initialize() has not been called")
        if not variadic and len(args) > len(positional):
            raise TypeError(f"{name}() takes {len(positional)} positional arguments but {len(args)} were given")
        shorts = _short_names().get(name, {})
        query = bool(flags.get("query") or flags.get("q"))
        long_flags = {}
        for key, value in flags.items():
            long = key if key in by_name else shorts.get(key)
            if long is None or long not in by_name:
                raise TypeError(f"Invalid flag '{key}'")
            if long in long_flags:
                raise TypeError(f"Flag '{long}' given twice")
            if not _accepts(by_name[long]["type"], value, query):
                raise TypeError(f"Invalid argument for flag '{long}': {value!r}")
            long_flags[long] = value
        _fault(name, long_flags)
        if name == "about" and long_flags.get("version"):
            return "2025 (stand-in)"
        own = _render.handle(name, args, long_flags, _forward)
        if own is not _render.NOT_HERE:
            return own
        return _forward(name, list(args), long_flags)

    command.__name__ = name
    return command


def _forward(name, args, flags):
    answer = _scene("POST", "/call", {"command": name, "args": args, "flags": flags})
    if answer is None:
        return None
    error = answer.get("error")
    if error is None:
        return _tuples(answer.get("result"))
    kind = TypeError if error["code"] in ("INVALID_FLAG", "INVALID_ARGUMENT") else RuntimeError
    if error["code"] == "NOT_IMPLEMENTED":
        return None
    raise kind(error["message"])


def _tuples(value):
    # maya.cmds returns tuples inside lists for compound values (getAttr of a double3).
    if isinstance(value, list) and value and all(isinstance(item, list) for item in value):
        return [tuple(item) for item in value]
    return value


def __getattr__(name):
    record = _catalog().get(name)
    if record is None or name.startswith("_"):
        raise AttributeError(f"module 'maya.cmds' has no attribute '{name}'")
    command = _make(name, record)
    globals()[name] = command
    return command
