"""Commands declared once in a JSON spec file that both sides read: the Node adapter (its catalog
and how each command is called, ``@dcc/linked-adapter``) and this side, which binds each spec to
a handler and checks a call's arguments against the spec's ``args`` schema before the handler
runs.

A spec file is a JSON array of objects: ``name``, ``signature``, ``description``, and optionally
``examples``, ``args`` (a JSON Schema object: ``type: "object"``, ``properties``, ``required``,
``additionalProperties``; per property ``type``, ``enum``, ``items``, ``minimum``, ``maximum``),
``method`` (the link method, default ``name``), ``lane`` (true for a read-only command) and
``image`` (true for a command that answers ``image_result(...)``: the script gets an image).
"""

from __future__ import annotations

import json
from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence

from .dispatch import Dispatcher
from .errors import HandlerError

INVALID_ARGS = "INVALID_ARGS"

_SPEC_KEYS = frozenset(
    ["name", "signature", "description", "examples", "args", "method", "lane", "image"]
)
_TYPES = {
    "string": lambda v: isinstance(v, str),
    "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "number": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
    "boolean": lambda v: isinstance(v, bool),
    "array": lambda v: isinstance(v, list),
    "object": lambda v: isinstance(v, dict),
    "null": lambda v: v is None,
}


class CommandSpecError(ValueError):
    """A malformed spec file or spec; the message names the file, the entry and the field."""


def load_command_specs(path: str) -> List[Dict[str, Any]]:
    """Reads and checks a spec file (see the module's docstring). Raises ``CommandSpecError``."""
    try:
        with open(path, encoding="utf-8") as handle:
            specs = json.load(handle)
    except (OSError, ValueError) as error:
        raise CommandSpecError(f"cannot read the command spec file {path}: {error}") from None
    check_command_specs(specs, path)
    return specs


def check_command_specs(specs: Any, where: str = "the specs") -> None:
    """Raises ``CommandSpecError`` unless ``specs`` is a list of well-formed specs."""
    if not isinstance(specs, list):
        raise CommandSpecError(f"{where} must be a JSON array")
    seen = set()
    for index, spec in enumerate(specs):
        def fail(problem: str) -> None:
            raise CommandSpecError(f"command spec {index} in {where}: {problem}")

        if not isinstance(spec, dict):
            fail("is not an object")
        unknown = sorted(set(spec) - _SPEC_KEYS)
        if unknown:
            fail(f"unknown key {unknown[0]!r}")
        for key in ("name", "signature", "description"):
            if not isinstance(spec.get(key), str) or not spec[key]:
                fail(f"{key!r} must be a non-empty string")
        if spec["name"] in seen:
            fail(f"the name {spec['name']!r} is declared twice")
        seen.add(spec["name"])
        args = spec.get("args")
        if args is not None and (not isinstance(args, dict) or args.get("type") != "object"):
            fail(f"'args' of {spec['name']} must be a JSON Schema with \"type\": \"object\"")
        for key in ("lane", "image"):
            if key in spec and not isinstance(spec[key], bool):
                fail(f"{key!r} of {spec['name']} must be true or false")


def _type_name(value: Any) -> str:
    for name in ("null", "boolean", "integer", "number", "string", "array", "object"):
        if _TYPES[name](value):
            return name
    return type(value).__name__


def _check_value(command: str, where: str, value: Any, schema: Mapping[str, Any]) -> None:
    def fail(problem: str) -> None:
        raise HandlerError(INVALID_ARGS, f"{command}: {where} {problem}", {"argument": where})

    expected = schema.get("type")
    if expected is not None:
        types = expected if isinstance(expected, list) else [expected]
        if not any(_TYPES.get(name, lambda v: False)(value) for name in types):
            fail(f"must be {' or '.join(types)}, got {_type_name(value)} {json.dumps(value)[:60]}")
    if "enum" in schema and value not in schema["enum"]:
        fail(f"must be one of {', '.join(json.dumps(v) for v in schema['enum'])}")
    if _TYPES["number"](value):
        if "minimum" in schema and value < schema["minimum"]:
            fail(f"must be at least {schema['minimum']}, got {value}")
        if "maximum" in schema and value > schema["maximum"]:
            fail(f"must be at most {schema['maximum']}, got {value}")
    if isinstance(value, list) and isinstance(schema.get("items"), dict):
        for index, item in enumerate(value):
            _check_value(command, f"{where}[{index}]", item, schema["items"])
    if isinstance(value, dict) and schema.get("type") == "object":
        _check_object(command, where, value, schema)


def _check_object(command: str, where: str, value: Mapping[str, Any], schema: Mapping[str, Any]) -> None:
    properties = schema.get("properties") or {}
    for name in schema.get("required") or ():
        if name not in value:
            raise HandlerError(
                INVALID_ARGS, f"{command}: {where}.{name} is required", {"argument": f"{where}.{name}"}
            )
    for name, item in value.items():
        if name in properties:
            _check_value(command, f"{where}.{name}", item, properties[name])
        elif schema.get("additionalProperties") is False:
            known = ", ".join(sorted(properties)) or "none"
            raise HandlerError(
                INVALID_ARGS,
                f"{command}: {where}.{name} is not an argument of {command} (arguments: {known})",
                {"argument": f"{where}.{name}"},
            )


def check_args(spec: Mapping[str, Any], params: Any) -> Dict[str, Any]:
    """``params`` checked against ``spec``'s ``args`` schema: ``None`` counts as ``{}``; anything
    else that is not an object, a missing required argument, an unknown one (with
    ``additionalProperties: false``) or a value of the wrong type raises
    ``HandlerError("INVALID_ARGS", …)`` naming the command and the argument."""
    command = spec["name"]
    if params is None:
        params = {}
    if not isinstance(params, dict):
        raise HandlerError(
            INVALID_ARGS,
            f"{command} takes one object of keyword arguments, got {_type_name(params)}",
            {"argument": "args"},
        )
    schema = spec.get("args")
    if schema is not None:
        _check_object(command, "args", params, schema)
    return params


Handler = Callable[[dict, Any], Any]


def register_commands(
    dispatcher: Dispatcher,
    specs: Sequence[Mapping[str, Any]],
    handlers: Mapping[str, Handler],
    wrap: Optional[Callable[[Handler], Handler]] = None,
) -> Dispatcher:
    """Registers one handler per spec under the spec's ``method`` (default its ``name``), each
    behind ``check_args``; ``wrap`` (e.g. a policy guard) wraps every handler first. Every spec
    needs a handler in ``handlers`` (keyed by command name) and every handler a spec, so the two
    sides cannot drift apart: a mismatch raises ``CommandSpecError`` at start-up."""
    check_command_specs(list(specs))
    names = {spec["name"] for spec in specs}
    missing = sorted(names - set(handlers))
    extra = sorted(set(handlers) - names)
    if missing or extra:
        parts = []
        if missing:
            parts.append(f"no handler for {', '.join(missing)}")
        if extra:
            parts.append(f"no spec for {', '.join(extra)}")
        raise CommandSpecError("; ".join(parts))
    for spec in specs:
        function = handlers[spec["name"]]
        inner = wrap(function) if wrap is not None else function

        def handler(params, call, spec=spec, inner=inner):
            return inner(check_args(spec, params), call)

        handler.__name__ = getattr(function, "__name__", spec["name"])
        dispatcher.register(spec.get("method") or spec["name"], handler)
    return dispatcher
