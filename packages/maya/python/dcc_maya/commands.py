"""``maya.cmd``: one ``maya.cmds`` command by name, its positional arguments and flags checked
by the policy first, its result made plain JSON, Maya's ``RuntimeError``/``TypeError`` turned
into a ``HandlerError`` with Maya's message and a code the script can branch on."""

from __future__ import annotations

import re
from typing import Any, Dict

from dcc_link import HandlerError, checkpoint

from .policy import RULE_DATA, Policy, PolicyRefusal
from .values import to_plain

# Maya's messages, sorted into the codes the simulated scene uses for the same failures.
_MESSAGE_CODES = (
    (re.compile(r"No object matches name|not found|does not exist|No such|doesn't exist", re.I), "NO_OBJECT"),
    (re.compile(r"Invalid flag|Unexpected flag|not a valid flag", re.I), "INVALID_FLAG"),
    (re.compile(r"locked|connected|Cannot|could not|Unsaved", re.I), "INVALID_STATE"),
)


def error_code(error: Exception) -> str:
    """The code for a Maya exception: NO_OBJECT, INVALID_FLAG, INVALID_STATE, or by type."""
    text = str(error)
    for pattern, code in _MESSAGE_CODES:
        if pattern.search(text):
            return code
    if isinstance(error, (TypeError, ValueError)):
        return "INVALID_ARGUMENT"
    return "MAYA_ERROR"


def refusal_error(refusal: PolicyRefusal) -> HandlerError:
    return refusal.handler_error()


def _parse(params: Dict[str, Any]):
    command = params.get("command")
    args = params.get("args", [])
    flags = params.get("flags", {})
    if not isinstance(command, str) or not command:
        raise HandlerError("INVALID_ARGS", "maya.cmd needs 'command', a maya.cmds command name")
    if not isinstance(args, list):
        raise HandlerError("INVALID_ARGS", "'args' must be an array of positional arguments")
    if not isinstance(flags, dict):
        raise HandlerError("INVALID_ARGS", "'flags' must be an object of flag names and values")
    return command, list(args), dict(flags)


def run_command(cmds, policy: Policy, params: Dict[str, Any]) -> Any:
    """Runs one command on the calling (main) thread."""
    command, args, flags = _parse(params)
    function = getattr(cmds, command, None) if not command.startswith("_") else None
    if not callable(function):
        raise HandlerError("UNKNOWN_COMMAND", f"{command} is not a maya.cmds command")
    try:
        flags = policy.check(command, args, flags)
        policy.check_in_scene(cmds, command, args, flags)
        before_load = policy.scene_code_snapshot(cmds, command, flags)
    except PolicyRefusal as refusal:
        raise refusal_error(refusal) from None
    position = None
    if command in RULE_DATA["positionConvenience"] and "position" in flags:
        position = flags.pop("position")
        if not (isinstance(position, list) and len(position) == 3 and all(
            isinstance(item, (int, float)) and not isinstance(item, bool) for item in position
        )):
            raise HandlerError("INVALID_ARGUMENT", f"position of {command} expects three numbers [x, y, z]")
    checkpoint()
    try:
        result = function(*args, **flags)
        if position is not None and isinstance(result, list) and result:
            # Not a Maya flag: the adapter places the new transform, as the simulated scene does.
            cmds.xform(result[0], translation=position)
    except (RuntimeError, TypeError, ValueError) as error:
        message = str(error).strip() or type(error).__name__
        raise HandlerError(error_code(error), message, {"mayaError": type(error).__name__}) from None
    try:
        policy.check_loaded_scene(cmds, command, flags, before_load, result)
    except PolicyRefusal as refusal:
        raise refusal_error(refusal) from None
    return to_plain(result)
