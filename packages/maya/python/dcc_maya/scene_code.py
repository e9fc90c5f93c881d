"""The code a loaded scene holds, asked of Maya: expression nodes, script nodes that run after
loading, and render-time MEL. Compared before and after a load, it tells what the load brought."""

from __future__ import annotations

from typing import Any, Collection, Dict, Iterable


def ask(cmds, name: str, *args: Any, **flags: Any) -> Any:
    """A Maya query that may fail (no such node or flag): None then."""
    try:
        return getattr(cmds, name)(*args, **flags)
    except (RuntimeError, TypeError, ValueError, AttributeError):
        return None


def scene_code(cmds, late_types: Collection[int], render: Iterable[str]) -> Dict[str, Any]:
    """The scene's code: expression nodes, script nodes that run after loading, render-time MEL."""
    nodes = list(ask(cmds, "ls", type="expression") or [])
    for node in ask(cmds, "ls", type="script") or []:
        after = ask(cmds, "getAttr", f"{node}.after")
        kind = ask(cmds, "getAttr", f"{node}.scriptType")
        if after or kind in late_types:
            nodes.append(node)
    plugs = {}
    for node in ask(cmds, "ls", type="renderGlobals") or []:
        for name in render:
            value = ask(cmds, "getAttr", f"{node}.{name}")
            if value:
                plugs[f"{node}.{name}"] = value
    return {"nodes": nodes, "plugs": plugs}
