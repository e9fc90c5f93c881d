"""The node attributes the policy knows, from the rule data: those Maya runs as code and those
it reads as file names, by name (any node) and by node type; and how a plug names them."""

from __future__ import annotations

import re
from typing import Any, Dict, List


def _names(groups: List[Dict[str, Any]], any_node: bool) -> frozenset:
    names = set()
    for group in groups:
        if any_node and not group["anyNode"]:
            continue
        for long, short in group["attributes"].items():
            names.add(long)
            if short:
                names.add(short)
    return frozenset(names)


def _by_type(groups: List[Dict[str, Any]]) -> Dict[str, frozenset]:
    table: Dict[str, set] = {}
    for group in groups:
        for node_type in group["nodeTypes"]:
            for long, short in group["attributes"].items():
                table.setdefault(node_type, set()).update(n for n in (long, short) if n)
    return {node_type: frozenset(names) for node_type, names in table.items()}


def tables(rule_data: Dict[str, Any]) -> Dict[str, Any]:
    """Names on any node and by node type, for code and for file names; the render hooks."""
    code = rule_data["codeAttributes"]
    files = rule_data["filenameAttributes"]
    render = next(group for group in code if "renderGlobals" in group["nodeTypes"])
    return {
        "code": _names(code, True),
        "files": _names(files, True),
        "codeByType": _by_type(code),
        "filesByType": _by_type(files),
        "render": sorted(render["attributes"]),
    }


def plug_attribute_names(plug: str) -> List[str]:
    """``|grp|ns:node.parent[0].child`` -> ``["parent", "child"]``; a bare name gives itself."""
    path = plug.split(".", 1)[1] if "." in plug else plug
    parts = (re.sub(r"\[[^\]]*\]", "", part).strip() for part in path.split("."))
    return [part for part in parts if part]


def plug_node(plug: str) -> str:
    """The node part of a plug (``""`` for a bare name or ``.attr``)."""
    return plug.split(".", 1)[0] if "." in plug else ""


def strings(value: Any) -> List[str]:
    """Every string in a value, lists and tuples included."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, (list, tuple)):
        return [item for part in value for item in strings(part)]
    return []
