"""Walking Blender's data by path through RNA only: properties and functions listed by
``bl_rna``, collection items by name or index, a fixed set of context members; never ``eval``.
Shared by the data commands and the operator arguments that name data-blocks."""

from __future__ import annotations

import difflib
import json
from dataclasses import dataclass
from typing import Any, Dict, Optional, Tuple

import bpy
from dcc_link import HandlerError

from . import policy as policy_module
from . import compat
from .compat import COLLECTION_TYPE, ID_TYPE, MESH_TYPE, STRUCT_TYPE
from .paths import DataPath, PathSyntaxError, Step, format_path, parse_path

INVALID_PATH = "INVALID_PATH"
NOT_FOUND = "NOT_FOUND"
READ_ONLY = "READ_ONLY"
INVALID_VALUE = "INVALID_VALUE"
INVALID_ARGS = "INVALID_ARGS"

# The context members a path may start with (context.<member>): what scripts commonly read.
CONTEXT_MEMBERS = frozenset(
    """active_object object edit_object selected_objects selected_editable_objects
    visible_objects selectable_objects objects_in_mode scene view_layer mode collection
    layer_collection active_material material world active_bone active_pose_bone selected_bones
    selected_editable_bones selected_pose_bones tool_settings""".split()
)
# Structs nobody reaches through the data API (key maps, clipboard, window handlers).
# Methods every bpy_struct has that are not RNA functions, and data.call may call.
STRUCT_METHODS = ("keyframe_insert", "keyframe_delete", "driver_add", "driver_remove")
REFUSED_TYPES = ("WindowManager", "Preferences", "KeyConfigurations", "Window")


@dataclass
class Resolved:
    """A walked path: the value, the struct or collection it was read from, and the RNA
    property (or function) definition of its last attribute step."""

    value: Any
    parent: Any
    step: Optional[Step]
    prop: Any
    text: str


def _close(name: str, names) -> str:
    names = [n for n in names if isinstance(n, str)]
    close = difflib.get_close_matches(name, names, n=5, cutoff=0.5)
    if close:
        return "; close: " + ", ".join(close)
    if names:
        shown = ", ".join(sorted(names)[:12])
        more = "" if len(names) <= 12 else f", ... ({len(names)} in all)"
        return f"; available: {shown}{more}"
    return ""


# Parsed paths by their text: a script sends the same few paths again and again (a loop's
# data.set), and parsing is a third of a data command's own Python work. A DataPath is frozen,
# so one may be shared; the cache is emptied when full, so it stays small.
_parsed: Dict[str, DataPath] = {}
_PARSED_MAX = 4096


def _parse(text: Any) -> DataPath:
    if not isinstance(text, str) or not text:
        given = "missing (or null)" if text is None else json.dumps(text, default=str)
        raise HandlerError(INVALID_PATH, f"a path must be a non-empty string like 'objects[\"Cube\"].location'; it is {given}")
    path = _parsed.get(text)
    if path is not None:
        return path
    try:
        path = parse_path(text)
    except PathSyntaxError as error:
        raise HandlerError(INVALID_PATH, error.message, {"position": error.position}) from None
    if len(_parsed) >= _PARSED_MAX:
        _parsed.clear()
    _parsed[text] = path
    return path


def _rna_of(value):
    try:
        return value.bl_rna
    except AttributeError:
        return None


def _members(rna):
    if rna is None:
        return {}, {}
    return rna.properties, rna.functions


# The refused types' Python classes (none of them has subclasses): testing a value's class costs
# no look-up of its RNA type per step of a path.
_REFUSED_CLASSES = tuple(getattr(bpy.types, name) for name in REFUSED_TYPES if hasattr(bpy.types, name))


def _guard_type(value, text: str, policy) -> None:
    if isinstance(value, _REFUSED_CLASSES):
        rna = value.bl_rna
        rule = policy_module.WINDOW_MANAGER_RULE
        if not policy.lifted(rule):
            raise HandlerError(
                "POLICY",
                f"{text} is refused by the host's policy (rule {rule!r}: {rna.identifier} holds "
                f"key maps, the clipboard and window handlers)",
                {"rule": rule},
            )


# RNA properties Blender defines in C (never freed) by (the struct's Python class, name): finding
# a property by name walks its type's definitions, which after Blender's own work on a large scene
# (a new name's place in a list of 100,000) are no longer in the processor's caches. Properties an
# add-on defines at run time (``is_runtime``) can be removed, so they are looked up every time.
_properties: Dict[Tuple[type, str], Any] = {}


def rna_property(value, name: str):
    """The RNA property ``name`` of ``value``'s type (a struct's or a collection's), or None."""
    cls = type(value)
    key = (cls, name)
    prop = _properties.get(key)
    if prop is not None:
        return prop
    props, _ = _members(_rna_of(value))
    prop = props.get(name) if props else None
    # Only a struct's class stands for one RNA type (every collection has the same class).
    if prop is not None and cls is not STRUCT_TYPE and isinstance(value, STRUCT_TYPE) and not prop.is_runtime:
        _properties[key] = prop
    return prop


def _attr(cur, name: str, so_far: str, allow_function: bool):
    """(value, definition) of ``cur.name`` where ``name`` is an RNA property or function."""
    prop = rna_property(cur, name)
    if prop is not None:
        try:
            return getattr(cur, name), prop
        except AttributeError as error:
            raise HandlerError(NOT_FOUND, f"{so_far}.{name}: {error}") from None
    rna = _rna_of(cur)
    props, functions = _members(rna)
    function = functions.get(name) if functions else None
    if function is not None:
        if not allow_function:
            raise HandlerError(
                INVALID_VALUE, f"{so_far}.{name} is a function: call it with data.call"
            )
        return getattr(cur, name), function
    python = python_properties(type(cur)).get(name)
    if python is not None:
        try:
            return python.__get__(cur), None
        except (AttributeError, ReferenceError, TypeError, ValueError, RuntimeError) as error:
            raise HandlerError(NOT_FOUND, f"{so_far}.{name}: {error}") from None
    kind = rna.identifier if rna is not None else type(cur).__name__
    names = [p.identifier for p in props] + [f.identifier for f in functions] if rna else []
    names += list(python_properties(type(cur)))
    raise HandlerError(
        NOT_FOUND, f"{so_far} ({kind}) has no property or function {name!r}{_close(name, names)}"
    )


_python_properties: dict = {}


def python_properties(cls) -> dict:
    """The read-only properties Blender's own Python layer (``bpy_types``) defines on a type
    beside its RNA: ``Object.children``, ``users_collection``, ``Bone.children_recursive``,
    ``Mesh.edge_keys``. Only Blender's shipped getters, never an add-on's code: name -> property."""
    found = _python_properties.get(cls)
    if found is None:
        found = {}
        for base in getattr(cls, "__mro__", ()):
            # Blender 5 renamed the module `_bpy_types`.
            if getattr(base, "__module__", None) not in ("bpy_types", "_bpy_types"):
                continue
            for name, member in vars(base).items():
                if isinstance(member, property) and member.fset is None and not name.startswith("_"):
                    found.setdefault(name, member)
        _python_properties[cls] = found
    return found


def _key(cur, key: str, so_far: str):
    if isinstance(cur, COLLECTION_TYPE):
        item = cur.get(key)
        if item is None:
            renamed = compat.renamed_socket(key, cur.keys())
            if renamed is not None:
                raise HandlerError(
                    NOT_FOUND,
                    f"{so_far} has no item named {key!r}: this Blender ({bpy.app.version_string}) calls it {renamed!r}",
                )
            raise HandlerError(
                NOT_FOUND, f"{so_far} has no item named {key!r}{_close(key, cur.keys())}"
            )
        return item
    if isinstance(cur, STRUCT_TYPE):
        try:
            keys = list(cur.keys())
        except TypeError:
            keys = None
        if keys is None:
            raise HandlerError(NOT_FOUND, f"{so_far} has no custom properties")
        if key not in keys:
            raise HandlerError(
                NOT_FOUND, f"{so_far} has no custom property {key!r}{_close(key, keys)}"
            )
        return cur[key]
    raise HandlerError(NOT_FOUND, f"{so_far} is not a collection: it has no item {key!r}")


def _index(cur, index: int, so_far: str):
    try:
        length = len(cur)
    except TypeError:
        raise HandlerError(NOT_FOUND, f"{so_far} is not a collection or array") from None
    if isinstance(cur, (str, bytes)):
        raise HandlerError(NOT_FOUND, f"{so_far} is a string, not a collection or array")
    if not -length <= index < length:
        raise HandlerError(NOT_FOUND, f"{so_far}[{index}] is out of range: it has {length} items")
    return cur[index]


# Data-blocks found or made by name in a bpy.data collection: (collection, name) -> the block.
# Blender finds a name by walking its list (16 ms per lookup at 100,000 objects in Blender 5.2
# for a name that sorts last), so a script that names the same blocks again (a loop's data.set,
# the $path of an object it just made) would pay a scene-sized walk per command. A block is taken
# from here only while it still has that name; Blender invalidates the Python object of a
# data-block it frees (a removal, an undo, a file load: "StructRNA ... has been removed"), and
# the handlers empty this before every command other than the data commands besides.
_found: Dict[Tuple[str, str], Any] = {}
_FOUND_MAX = 65536


def forget_found() -> None:
    """Empties the found data-blocks (before a command that may free or reload any)."""
    _found.clear()


def remember_found(collection: str, block) -> None:
    """Notes ``block``, an item of ``bpy.data.<collection>``, under its name."""
    if len(_found) >= _FOUND_MAX:
        _found.clear()
    _found[(collection, block.name)] = block


def _found_block(collection: str, name: str):
    block = _found.get((collection, name))
    if block is None:
        return None
    try:
        if block.name == name:
            return block
    except ReferenceError:  # freed since
        pass
    del _found[(collection, name)]
    return None


# bpy.data's members (BlendData is a struct of Blender's own, the same for the whole session):
# identifier -> RNA property, read once. Listing them per command (``keys()``) read every
# member's definition each time.
_data_members: Dict[str, Any] = {}


def data_members() -> Dict[str, Any]:
    """``bpy.data``'s members by identifier (its collections, ``filepath``, ``is_dirty``...)."""
    if not _data_members:
        _data_members.update((prop.identifier, prop) for prop in bpy.data.bl_rna.properties)
    return _data_members


def note_block_path(text: Any, collection: str, name: str) -> None:
    """Notes ``text`` parsed when it is the path of ``bpy.data.<collection>[name]``: the script
    that was answered with it sends it back next (the ``$path`` of an object it just made)."""
    path = DataPath("data", (Step("attr", collection), Step("key", name)))
    if text != format_path("data", path.steps) or text in _parsed:
        return
    if len(_parsed) >= _PARSED_MAX:
        _parsed.clear()
    _parsed[text] = path


def walk(path: DataPath, policy, *, allow_function: bool = False, upto: Optional[int] = None) -> Resolved:
    """Walks ``path`` (its first ``upto`` steps) from bpy.data or bpy.context."""
    steps = path.steps if upto is None else path.steps[:upto]
    if path.root == "context":
        first = steps[0].value
        if first not in CONTEXT_MEMBERS:
            raise HandlerError(
                NOT_FOUND,
                f"context.{first} is not available; context members: {', '.join(sorted(CONTEXT_MEMBERS))}",
            )
        cur, prop, parent = getattr(bpy.context, first, None), None, bpy.context
    else:
        first = steps[0].value
        data_props = data_members()
        if first not in data_props:
            names = [name for name, p in data_props.items() if p.type == "COLLECTION"]
            raise HandlerError(
                NOT_FOUND, f"bpy.data has no collection {first!r}{_close(first, names)}"
            )
        if first == "window_managers" and not policy.lifted(policy_module.WINDOW_MANAGER_RULE):
            rule = policy_module.WINDOW_MANAGER_RULE
            raise HandlerError(
                "POLICY",
                f"window_managers is refused by the host's policy (rule {rule!r}: it holds key "
                f"maps, the clipboard and window handlers)",
                {"rule": rule},
            )
        cur, prop, parent = getattr(bpy.data, first), data_props[first], bpy.data
    last = steps[0]
    # The text so far, grown a step at a time (as format_path writes it) rather than formatted
    # again from the start at every step.
    so_far = format_path(path.root, steps[:1])
    for index, step in enumerate(steps[1:], start=1):
        if cur is None:
            raise HandlerError(NOT_FOUND, f"{so_far} is None: it has no {step.text().lstrip('.')}")
        parent = cur
        is_last = index == len(steps) - 1
        if step.kind == "attr":
            cur, prop = _attr(cur, step.value, so_far, allow_function and is_last)
        elif step.kind == "key" and index == 1 and path.root == "data":
            # An item of a bpy.data collection by name: found before, or looked up and noted.
            found = _found_block(first, step.value)
            if found is None:
                found = _key(cur, step.value, so_far)
                if isinstance(found, ID_TYPE):
                    remember_found(first, found)
            cur, prop = found, None
        elif step.kind == "key":
            cur, prop = _key(cur, step.value, so_far), None
        else:
            cur, prop = _index(cur, step.value, so_far), prop
        last = step
        so_far += step.text()
        _guard_type(cur, so_far, policy)
        if isinstance(cur, MESH_TYPE) and cur.is_editmode:
            _load_edit_mesh(cur)
    return Resolved(cur, parent, last, prop, so_far)


def _load_edit_mesh(mesh) -> None:
    # In Edit Mode the geometry lives in Blender's edit mesh: the Mesh keeps what it had when
    # the mode was entered until it is loaded back, so a read would see stale vertices.
    for obj in bpy.data.objects:
        if obj.mode == "EDIT" and obj.type == "MESH" and obj.data == mesh:
            obj.update_from_editmode()


def resolve_text(text: str, policy) -> Any:
    """The value at a path (for ``{"$path": ...}`` arguments)."""
    return walk(_parse(text), policy).value
