"""The Maya side's dispatcher: ``maya.ping``, ``maya.cmd`` and the undo chunk of a script
(``maya.undo.open``, ``maya.undo.close``, ``maya.undo.rollback``)."""

from __future__ import annotations

from dcc_link import Dispatcher, HandlerError

from .commands import run_command
from .policy import Policy


def build_dispatcher(cmds, policy: Policy, *, loop: str) -> Dispatcher:
    """Handlers over ``cmds`` (``maya.cmds``) for a loop style (``blocking`` or ``pump``)."""
    dispatcher = Dispatcher()
    chunk = {"name": None}

    def ping(params, call):
        return {"maya": cmds.about(version=True), "dataDir": policy.data_dir, "loop": loop}

    def cmd(params, call):
        return run_command(cmds, policy, params)

    def undo_open(params, call):
        name = params.get("label", "dcc_execute")
        if not isinstance(name, str) or not name:
            raise HandlerError("INVALID_ARGS", "the chunk label must be a non-empty string")
        if chunk["name"] is not None:
            cmds.undoInfo(closeChunk=True)
        cmds.undoInfo(openChunk=True, chunkName=name)
        chunk["name"] = name
        return {"open": name}

    def undo_close(params, call):
        name = chunk["name"]
        chunk["name"] = None
        if name is None:
            return {"rolledBack": False, "reason": "failed", "detail": "no undo chunk was open"}
        # Always closed, whatever happened in between: an open chunk would swallow the
        # user's next actions into one undo step.
        cmds.undoInfo(closeChunk=True)
        last = cmds.undoInfo(query=True, undoName=True)
        if last != name:
            return {
                "rolledBack": False,
                "reason": "nothing_to_undo",
                "detail": "the script left no undo step (it changed nothing Maya can undo)",
            }
        if params.get("rollback") is True:
            cmds.undo()
            return {"rolledBack": True}
        return {"rolledBack": False, "undoStep": name}

    dispatcher.register("maya.ping", ping)
    dispatcher.register("maya.cmd", cmd)
    dispatcher.register("maya.undo.open", undo_open)
    dispatcher.register("maya.undo.close", undo_close)
    return dispatcher
