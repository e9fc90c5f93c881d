"""The host's dispatcher: ``ping``, ``blender.op``, ``blender.reset``, the data commands (declared
in ``commands.json``, which the adapter reads too), ``bench.echo`` and ``bench.stamps`` (for the
link benchmark) and ``bench.undo`` (the undo bookkeeping's cost)."""

from __future__ import annotations

import os
from typing import Callable, Optional

import bpy
from dcc_link import Dispatcher, HandlerError, load_command_specs, register_commands

from . import (
    bench_scene,
    capture,
    compat,
    data_api,
    echo,
    operator_dump,
    operators,
    recovery,
    render,
    rna_walk,
    stamps,
    transaction,
    undo_bench,
    unsaved,
)
from .paths import PathSyntaxError
from .policy import Policy, PolicyRefusal


# Commands that run on an unevaluated scene: the writes (each marks the scene for evaluation, and
# ``data.call`` evaluates first where the function may read evaluated data) and those that do
# not look at the scene. Every other command (reads, operators, captures) evaluates what the
# writes before it left, once.
_UNSETTLED_OK = frozenset(
    {"data.set", "data.call", "ping", "bench.echo", "bench.stamps", "bench.profile"}
)


# Commands that free or reload no data-block: the data-blocks the data commands found by name
# stay noted across them (see ``rna_walk.forget_found``); any other command empties the notes.
_KEEPS_FOUND = frozenset(
    {"data.get", "data.set", "data.list", "data.describe", "data.call", "ping", "bench.echo", "bench.stamps", "bench.profile", "bench.settle"}
)


def _guarded(function: Callable, policy: Policy, method: str) -> Callable:
    settles = method not in _UNSETTLED_OK
    forgets = method not in _KEEPS_FOUND

    def handler(params, call):
        if not isinstance(params, dict):
            raise HandlerError("INVALID_ARGS", "params must be an object")
        if forgets:
            rna_walk.forget_found()
        if settles:
            data_api.settle()
        unsaved.before_command()
        try:
            # The script's transaction sees each command: undo commands are checked against the
            # script's own history, the first change is noted (no work per data-block).
            answer = transaction.before_command(method, params)
            if answer is not None:
                return answer
            result = function(params, call, policy)
        except HandlerError as error:
            _after(method, params, None, error)
            transaction.note_files(error.data)
            raise
        except PolicyRefusal as refusal:
            error = refusal.handler_error()
            _after(method, params, None, error)
            raise error from None
        except PathSyntaxError as syntax:
            error = HandlerError("INVALID_PATH", syntax.message, {"position": syntax.position})
            _after(method, params, None, error)
            raise error from None
        except BaseException:
            _after(method, params, None, HandlerError("FAILED", "failed"))
            raise
        _after(method, params, result, None)
        transaction.note_files(result)
        return result

    handler.__name__ = getattr(function, "__name__", "handler")
    return handler


def _after(method: str, params, result, error: Optional[HandlerError]) -> None:
    transaction.after_command(method, params, result, error)
    unsaved.after_command(method, params, error, transaction.changes_scene(method, params))


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

_DATA_NAMES = {function: name for name, function in DATA_HANDLERS.items()}
# The transaction's own methods: not commands of the script it guards.
_TRANSACTION = frozenset({"blender.txn.begin", "blender.txn.end"})

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
    "blender.recovery.save": recovery.save,
    "blender.recovery.open": recovery.open_copy,
    "blender.file_state": unsaved.file_state,
    "bench.echo": lambda params, call, policy: echo.start_echo(params, call),
    "bench.stamps": stamps.bench_stamps,
    "bench.scene": bench_scene.bench_scene,
    "bench.plain": bench_scene.bench_plain,
    "bench.profile": bench_scene.bench_profile,
    "bench.settle": bench_scene.bench_settle,
    "bench.trim": bench_scene.bench_trim,
    "bench.op_times": bench_scene.bench_op_times,
    "bench.undo": undo_bench.bench_undo,
    "bench.save": recovery.bench_plain_save,
    "bench.populate": recovery.bench_populate,
}


def _transaction(function: Callable, params, call, policy: Policy):
    rna_walk.forget_found()  # a rollback reloads the scene
    return function(params, call, policy)


def prepare(policy: Policy) -> None:
    """Confines render output now and after every file load; probes whether captures can draw."""
    render.confine_outputs(policy)
    render.install_load_handler(policy)
    unsaved.install_load_handler()
    capture.probe_gl()


def build_dispatcher(policy: Policy, dispatcher: Optional[Dispatcher] = None) -> Dispatcher:
    """A dispatcher with every handler bound to ``policy``."""
    dispatcher = dispatcher if dispatcher is not None else Dispatcher()
    for name, function in HANDLERS.items():
        if name in _TRANSACTION:
            dispatcher.register(name, lambda params, call, function=function: _transaction(function, params, call, policy))
        else:
            dispatcher.register(name, _guarded(function, policy, name))
    register_commands(
        dispatcher,
        load_command_specs(COMMANDS_FILE),
        DATA_HANDLERS,
        wrap=lambda function: _guarded(function, policy, _DATA_NAMES[function]),
    )
    return dispatcher
