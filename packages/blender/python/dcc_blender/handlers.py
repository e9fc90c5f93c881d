"""The host's dispatcher: ``ping``, ``blender.op``, ``blender.reset``, the data commands (declared
in ``commands.json``, which the adapter reads too), and ``bench.echo`` and ``bench.stamps`` (for
the link benchmark)."""

from __future__ import annotations

import os
from typing import Callable, Optional

import bpy
from dcc_link import Dispatcher, HandlerError, load_command_specs, register_commands

from . import capture, compat, data_api, echo, operator_dump, operators, render, stamps, transaction
from .paths import PathSyntaxError
from .policy import Policy, PolicyRefusal


def _guarded(function: Callable, policy: Policy) -> Callable:
    def handler(params, call):
        if not isinstance(params, dict):
            raise HandlerError("INVALID_ARGS", "params must be an object")
        try:
            result = function(params, call, policy)
            transaction.note_files(result)
            return result
        except HandlerError as error:
            transaction.note_files(error.data)
            raise
        except PolicyRefusal as refusal:
            raise refusal.handler_error() from None
        except PathSyntaxError as error:
            raise HandlerError("INVALID_PATH", error.message, {"position": error.position}) from None

    handler.__name__ = getattr(function, "__name__", "handler")
    return handler


def ping(params, call, policy: Policy):
    return {
        "blender": bpy.app.version_string,
        "dataDir": policy.data_dir,
        "background": bpy.app.background,
        "loop": "blocking" if bpy.app.background else "pump",
    }


def reset(params, call, policy: Policy):
    """Factory settings (the default scene with cube, camera and light), output confined."""
    bpy.ops.wm.read_factory_settings(use_empty=False)
    render.confine_outputs(policy)
    return {"objects": sorted(o.name for o in bpy.data.objects)}


def operators_list(params, call, policy: Policy):
    """This Blender's version, the key of its commands and every operator's id (cheap)."""
    names = []
    for idname in operator_dump.operator_ids():
        module, _, name = idname.partition("_OT_")
        names.append(f"{module.lower()}.{name}")
    return {"blender": bpy.app.version_string, "key": operator_dump.build_key(), "names": names}


def operators_describe(params, call, policy: Policy):
    """Every operator as the catalog describes it, read from this Blender's RNA."""
    return operator_dump.describe_operators()


def data_get(params, call, policy: Policy):
    stamps.note_arrival()
    return data_api.data_get(params, call, policy)


COMMANDS_FILE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "commands.json")

# The data commands, one per spec of COMMANDS_FILE.
DATA_HANDLERS = {
    "data.get": data_get,
    "data.set": data_api.data_set,
    "data.list": data_api.data_list,
    "data.call": data_api.data_call,
    "data.describe": data_api.data_describe,
    "viewport.screenshot": capture.capture_viewport,
}

# Link methods that are not script commands.
HANDLERS = {
    "ping": ping,
    "blender.op": operators.blender_op,
    "blender.reset": reset,
    "blender.operators.list": operators_list,
    "blender.operators.describe": operators_describe,
    "blender.vocabulary": lambda params, call, policy: compat.vocabulary(),
    "blender.txn.begin": transaction.begin,
    "blender.txn.end": transaction.end,
    "bench.echo": lambda params, call, policy: echo.start_echo(params, call),
    "bench.stamps": stamps.bench_stamps,
}


def prepare(policy: Policy) -> None:
    """Confines render output now and after every file load."""
    render.confine_outputs(policy)
    render.install_load_handler(policy)


def build_dispatcher(policy: Policy, dispatcher: Optional[Dispatcher] = None) -> Dispatcher:
    """A dispatcher with every handler bound to ``policy``."""
    dispatcher = dispatcher if dispatcher is not None else Dispatcher()
    for name, function in HANDLERS.items():
        dispatcher.register(name, _guarded(function, policy))
    register_commands(
        dispatcher,
        load_command_specs(COMMANDS_FILE),
        DATA_HANDLERS,
        wrap=lambda function: _guarded(function, policy),
    )
    return dispatcher
