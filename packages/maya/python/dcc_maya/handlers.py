"""The Maya side's dispatcher: ``maya.ping``, ``maya.cmd`` and the undo chunk of a script
(``maya.undo.open``, ``maya.undo.close`` with ``rollback``)."""

from __future__ import annotations

from dcc_link import Dispatcher, HandlerError

from .commands import run_command
from .policy import Policy
from .values import to_plain


# Commands that read and never change the scene (with any flags); any other command counts as a
# change unless it is a query (``query``/``q``).
_READS = frozenset(
    """about attributeQuery exactWorldBoundingBox getAttr listAttr listConnections listHistory
    listRelatives ls nodeType objExists objectType pointPosition polyEvaluate""".split()
)
# Errors raised before Maya ran the command.
_NOT_RUN = frozenset({"POLICY", "INVALID_ARGS", "UNKNOWN_COMMAND"})


def _flag(flags, long: str, short: str):
    return flags.get(long, flags.get(short))


def changes_scene(command, flags) -> bool:
    """Whether a ``maya.cmd`` call may change the scene (conservative)."""
    if not isinstance(command, str) or command in _READS or command in ("undo", "redo"):
        return False
    return not (isinstance(flags, dict) and _flag(flags, "query", "q") is True)


def build_dispatcher(cmds, policy: Policy, *, loop: str) -> Dispatcher:
    """Handlers over ``cmds`` (``maya.cmds``) for a loop style (``blocking`` or ``pump``).

    The script's transaction owns the undo queue between ``maya.undo.open`` and
    ``maya.undo.close``. Its chunk opens just before the script's first command that may change the
    scene (so a script that only reads or walks the queue never opens one, and no empty chunk ever
    reaches Maya's queue). Before its first change a script may ``undo`` and ``redo`` freely;
    afterwards both are refused, as is an ``undoInfo`` ``closeChunk`` that would close the
    script's own chunk; a rollback undoes the chunk and walks back the script's undos and redos,
    and says ``rolledBack`` only when the queue is back."""
    dispatcher = Dispatcher()
    chunk = {"name": None, "opened": False, "walked": 0, "nested": 0, "dirty": False, "start": None}

    def queue():
        return (cmds.undoInfo(query=True, undoName=True), cmds.undoInfo(query=True, redoName=True))

    def ping(params, call):
        return {"maya": cmds.about(version=True), "dataDir": policy.data_dir, "loop": loop}

    def close_chunks():
        if chunk["opened"]:
            for _ in range(chunk["nested"] + 1):
                cmds.undoInfo(closeChunk=True)
        chunk["opened"] = False
        chunk["nested"] = 0

    def walk(command):
        if chunk["dirty"]:
            raise HandlerError(
                "INVALID_STATE",
                f"{command}: this script has changed the scene, and its changes become one undo step only when it "
                f"ends; {command} in a script before it changes anything (an undo script), not after",
            )
        close_chunks()  # opened by a change Maya refused: holds nothing
        before = queue()
        answer = getattr(cmds, command)()
        if answer is not None or queue() != before:
            chunk["walked"] += 1 if command == "undo" else -1
        return to_plain(answer)

    def cmd(params, call):
        if chunk["name"] is None:
            return run_command(cmds, policy, params)
        command, flags = params.get("command"), params.get("flags") or {}
        if command in ("undo", "redo") and not params.get("args") and not flags:
            return walk(command)
        if command == "undoInfo" and isinstance(flags, dict):
            if _flag(flags, "closeChunk", "cck") is True:
                if chunk["nested"] == 0:
                    raise HandlerError(
                        "INVALID_STATE",
                        "undoInfo closeChunk would close this script's own undo chunk (the transaction closes it when "
                        "the script ends); close only the chunks the script opened",
                    )
                chunk["nested"] -= 1
        changing = changes_scene(command, flags)
        if changing and not chunk["opened"]:
            cmds.undoInfo(openChunk=True, chunkName=chunk["name"])
            chunk["opened"] = True
        if command == "undoInfo" and isinstance(flags, dict) and _flag(flags, "openChunk", "ock") is True:
            chunk["nested"] += 1
        try:
            result = run_command(cmds, policy, params)
        except HandlerError as error:
            if error.code not in _NOT_RUN and changing:
                chunk["dirty"] = True
            raise
        if changing:
            chunk["dirty"] = True
        return result

    def undo_open(params, call):
        name = params.get("label", "dcc_execute")
        if not isinstance(name, str) or not name:
            raise HandlerError("INVALID_ARGS", "the chunk label must be a non-empty string")
        close_chunks()
        chunk.update(name=name, start=queue(), walked=0, dirty=False)
        return {"open": name}

    def unchanged():
        walked = chunk["walked"]
        detail = (
            "the script left no undo step (it changed nothing Maya can undo)"
            if walked == 0
            else f"the script {'undid' if walked > 0 else 'redid'} {abs(walked)} earlier step(s) and changed nothing else"
        )
        return {"rolledBack": False, "reason": "nothing_to_undo", "detail": detail}

    def undo_close(params, call):
        name = chunk["name"]
        chunk["name"] = None
        if name is None:
            return {"rolledBack": False, "reason": "failed", "detail": "no undo chunk was open"}
        # Always closed, whatever happened in between: an open chunk would swallow the
        # user's next actions into one undo step.
        close_chunks()
        step = chunk["dirty"] and cmds.undoInfo(query=True, undoName=True) == name
        if params.get("rollback") is not True:
            return {"rolledBack": False, "undoStep": name} if step else unchanged()
        walked = chunk["walked"]
        if not step and walked == 0:
            return unchanged()
        if step:
            cmds.undo()
            if walked != 0:
                return {
                    "rolledBack": False,
                    "reason": "history_cut",
                    "detail": f"the script's changes were undone, but it had {'undone' if walked > 0 else 'redone'} "
                    f"{abs(walked)} earlier step(s) first, and its changes discarded Maya's redo queue",
                }
        for _ in range(abs(walked)):
            (cmds.redo if walked > 0 else cmds.undo)()
        now, start = queue(), chunk["start"]
        if now[0] != start[0] or (not step and now[1] != start[1]):
            return {
                "rolledBack": False,
                "reason": "failed",
                "detail": "the undo queue did not return to where it stood when the script began",
            }
        return {"rolledBack": True}

    dispatcher.register("maya.ping", ping)
    dispatcher.register("maya.cmd", cmd)
    dispatcher.register("maya.undo.open", undo_open)
    dispatcher.register("maya.undo.close", undo_close)
    return dispatcher
