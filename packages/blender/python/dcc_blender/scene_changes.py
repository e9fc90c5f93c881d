"""A script's net change report: the data-blocks it created and removed, under their final
names, each once, by whatever route (operators, ``data.call`` ``objects.remove``, an undo).

The names of every ``bpy.data`` collection are taken once per script, just before its first
command that may change the scene (``keys()`` runs in Blender's C code: no Python work per
data-block), and compared with the names at its end; only collections whose names differ are
looked at item by item. A rename seen through ``data.set`` is not a removal plus a creation; a
data-block made and then renamed is reported under its last name. Per command the cost is
nothing. ``bpy.data.all_ids`` (Blender 5), which lists every data-block again, is left out, so
each data-block is listed once.
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Tuple

import bpy

from .paths import Step, format_path

# Not scene data (the window manager), or every other collection again (Blender 5).
_SKIPPED = frozenset({"window_managers", "all_ids"})
# A report lists this many data-blocks of each kind and counts the rest.
MAX_LISTED = 100

_collections: List[Tuple[str, str]] = []


def collections() -> List[Tuple[str, str]]:
    """``(collection, item type)`` of every ``bpy.data`` collection that holds scene data."""
    if not _collections:
        for prop in bpy.data.bl_rna.properties:
            if prop.type == "COLLECTION" and prop.identifier not in _SKIPPED:
                kind = prop.fixed_type.identifier if prop.fixed_type is not None else prop.identifier
                _collections.append((prop.identifier, kind))
    return _collections


def names() -> Dict[str, List[str]]:
    """The names in every collection, as Blender lists them."""
    data = bpy.data
    return {name: getattr(data, name).keys() for name, _ in collections()}


class Ledger:
    """What one script did that names alone do not tell: renames, and the parts of data-blocks
    (modifiers, constraints, material slots) that operators reported creating and removing."""

    def __init__(self) -> None:
        self.before: Optional[Dict[str, List[str]]] = None
        self.renames: List[Tuple[str, str]] = []
        self.parts: Dict[str, List[Any]] = {"created": [], "removed": []}

    def start(self) -> None:
        """Takes the names once, before the script's first change."""
        if self.before is None:
            self.before = names()

    def rename(self, old: str, new: str) -> None:
        if old != new:
            self.renames.append((old, new))

    def note_parts(self, result: Any) -> None:
        """Keeps the parts a command's change report lists (not whole data-blocks)."""
        if not isinstance(result, dict):
            return
        for kind in ("created", "removed"):
            items = result.get(kind)
            if not isinstance(items, list):
                continue
            for item in items:
                path = item.get("path") if isinstance(item, dict) else None
                if isinstance(path, str) and "]." in path and len(self.parts[kind]) < MAX_LISTED:
                    self.parts[kind].append(item)

    def report(self) -> Optional[Dict[str, Any]]:
        """The net change since :meth:`start` (empty lists when nothing was made or removed);
        None when the script never came to a command that may change the scene."""
        if self.before is None:
            return None
        created: List[Dict[str, Any]] = []
        removed: List[Dict[str, Any]] = []
        after = names()
        data = bpy.data
        for name, kind in collections():
            old_names, new_names = self.before.get(name, []), after[name]
            if old_names == new_names:
                continue
            old, new = set(old_names), set(new_names)
            gone, made = old - new, new - old
            # A data-block that was only renamed keeps its place: neither made nor gone.
            for first, last in _rename_chains(self.renames):
                if first in gone and last in made:
                    gone.discard(first)
                    made.discard(last)
            collection = getattr(data, name)
            for item in sorted(made):
                block = collection.get(item)
                created.append(_entry(block.bl_rna.identifier if block is not None else kind, name, item))
            for item in sorted(gone):
                removed.append(_entry(kind, name, item))
        created.extend(self.parts["created"])
        removed.extend(self.parts["removed"])
        out: Dict[str, Any] = {"created": created, "removed": removed}
        more = {}
        for key in ("created", "removed"):
            if len(out[key]) > MAX_LISTED:
                more[key] = len(out[key]) - MAX_LISTED
                out[key] = out[key][:MAX_LISTED]
        if more:
            out["more"] = more
        return out


def _entry(kind: str, collection: str, name: str) -> Dict[str, Any]:
    return {"type": kind, "name": name, "path": format_path("data", [Step("attr", collection), Step("key", name)])}


def _rename_chains(renames: List[Tuple[str, str]]) -> List[Tuple[str, str]]:
    """``(first name, last name)`` of each data-block renamed, once or several times."""
    origin: Dict[str, str] = {}
    for old, new in renames:
        origin[new] = origin.pop(old, old)
    return [(first, last) for last, first in origin.items()]
