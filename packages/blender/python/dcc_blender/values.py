"""RNA values to JSON and back (runs inside Blender)."""

from __future__ import annotations

import math
from typing import Any, Dict, Optional

import bpy
import mathutils

from . import compat
from .compat import ARRAY_TYPE, COLLECTION_TYPE, ID_TYPE, STRUCT_TYPE
from .paths import PathSyntaxError, Step, format_path, parse_path

_MATH_TYPES = (mathutils.Vector, mathutils.Color, mathutils.Euler, mathutils.Quaternion)
_collection_of: Dict[str, str] = {}


def _collections_by_type() -> Dict[str, str]:
    """RNA type identifier of a data-block -> its bpy.data collection (Object -> objects)."""
    if not _collection_of:
        for prop in bpy.data.bl_rna.properties:
            if prop.type == "COLLECTION" and prop.fixed_type is not None and prop.identifier != "all_ids":
                _collection_of.setdefault(prop.fixed_type.identifier, prop.identifier)
    return _collection_of


def id_collection(rna) -> Optional[str]:
    """The bpy.data collection holding data-blocks of RNA type ``rna`` (walks the bases, so
    PointLight -> lights, ShaderNodeTree -> node_groups)."""
    table = _collections_by_type()
    while rna is not None:
        found = table.get(rna.identifier)
        if found is not None:
            return found
        rna = rna.base
    return None


def _path_from_repr(value) -> Optional[str]:
    # Blender's repr spells the full path, embedded data included:
    # bpy.data.materials['Material'].node_tree.nodes["Principled BSDF"]
    text = repr(value)
    if not text.startswith("bpy.data."):
        return None
    try:
        return parse_path(text[len("bpy.data.") :]).text()
    except PathSyntaxError:
        return None


def id_path(block, rna=None) -> Optional[str]:
    """The path of a data-block: ``objects["Cube"]`` (or via its owner for embedded data);
    ``rna`` is its ``bl_rna`` when the caller has it already."""
    if getattr(block, "is_embedded_data", False):
        return _path_from_repr(block)
    collection = id_collection(rna if rna is not None else block.bl_rna)
    if collection is None:
        return None
    if block.library is not None:
        return _path_from_repr(block)
    return format_path("data", (Step("attr", collection), Step("key", block.name)))


def ref(value) -> Dict[str, Any]:
    """A reference to a data-block or struct: ``{"type", "name"?, "path"}``."""
    rna = value.bl_rna
    out: Dict[str, Any] = {"type": rna.identifier}
    if isinstance(value, ID_TYPE):
        out["name"] = value.name
        out["path"] = id_path(value, rna)
        return out
    name_prop = rna.properties.get("name")
    if name_prop is not None and name_prop.type == "STRING":
        out["name"] = value.name
    out["path"] = struct_path(value)
    return out


def struct_path(value) -> Optional[str]:
    """The path of a struct inside a data-block: Blender's own ``path_from_id`` where it can
    spell one, else found by position for the types it cannot (node links, F-curves,
    keyframes). None for a struct outside ``bpy.data``."""
    owner = getattr(value, "id_data", None)
    base = id_path(owner) if owner is not None else None
    if base is None:
        return _path_from_repr(value)
    try:
        inner = value.path_from_id()
    except (ValueError, TypeError):
        inner = _position_path(value, owner)
    if inner is None:
        return None
    if inner == "":
        return base
    try:
        return parse_path(base + ("" if inner.startswith("[") else ".") + inner).text()
    except PathSyntaxError:
        return None


# Owner pointer -> struct pointer -> path, while one answer is converted: a list of keyframes
# would otherwise search the owner once per keyframe.
_positions: Optional[Dict[int, Dict[int, str]]] = None


def _position_path(value, owner) -> Optional[str]:
    key = owner.as_pointer()
    table = _positions.get(key) if _positions is not None else None
    if table is None:
        table = _position_table(owner)
        if _positions is not None:
            _positions[key] = table
    return table.get(value.as_pointer())


def _position_table(owner) -> Dict[int, str]:
    """The paths of ``owner``'s node links, F-curves and keyframes, by struct pointer."""
    table: Dict[int, str] = {}
    if isinstance(owner, bpy.types.NodeTree):
        for index, link in enumerate(owner.links):
            table[link.as_pointer()] = f"links[{index}]"
    curves = []
    if isinstance(owner, bpy.types.Action):
        curves.extend(compat.action_fcurves(owner))
    animation = getattr(owner, "animation_data", None)
    if animation is not None:
        curves.append(("animation_data.drivers", animation.drivers))
    for prefix, fcurves in curves:
        for index, fcurve in enumerate(fcurves):
            table[fcurve.as_pointer()] = f"{prefix}[{index}]"
            for point, keyframe in enumerate(fcurve.keyframe_points):
                table[keyframe.as_pointer()] = f"{prefix}[{index}].keyframe_points[{point}]"
    return table


def _number(value: float):
    return value if math.isfinite(value) else None


def to_json(value: Any, depth: int = 1) -> Any:
    """An RNA value as JSON: arrays for vectors, colors and matrices (rows), sorted lists for
    sets, references for data-blocks and structs, collections as lists while ``depth`` > 0
    (items converted with ``depth - 1``) and as their length at depth 0."""
    global _positions
    # Positions are read once per answer, and never kept for the next (indices change).
    _positions = {}
    try:
        return _to_json(value, depth)
    finally:
        _positions = None


def _to_json(value: Any, depth: int) -> Any:
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, float):
        return _number(value)
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")
    if isinstance(value, (set, frozenset)):
        return sorted(_to_json(item, depth) for item in value)
    if isinstance(value, mathutils.Matrix):
        return [[_number(x) for x in row] for row in value]
    if isinstance(value, _MATH_TYPES):
        return [_number(x) for x in value]
    if isinstance(value, COLLECTION_TYPE):
        if depth <= 0:
            return len(value)
        return [_to_json(item, depth - 1) for item in value]
    if isinstance(value, STRUCT_TYPE):
        return ref(value)
    if isinstance(value, ARRAY_TYPE):
        return [_to_json(item, depth) for item in value]
    if isinstance(value, (list, tuple)):
        return [_to_json(item, depth) for item in value]
    if hasattr(value, "to_dict"):  # ID properties (custom properties)
        return value.to_dict()
    if hasattr(value, "to_list"):
        return value.to_list()
    return repr(value)


def array_value_problem(prop, value: Any) -> Optional[str]:
    """What is wrong with ``value`` for an array property (a vector, a colour, a matrix), in
    words naming what it takes; None when it has the right shape, or ``prop`` is no array.
    Blender's own messages ("sequences of dimension 0 should contain 3 items, not 5") name
    neither the property nor the cause."""
    length = getattr(prop, "array_length", 0) if prop is not None else 0
    if length <= 0:
        return None
    # A matrix (dimensions 4, 4) is given as rows or flat.
    dimensions = tuple(getattr(prop, "array_dimensions", ()) or ())
    rows = dimensions[0] if len(dimensions) > 1 and dimensions[1] > 0 else length
    if isinstance(value, str):
        return f"takes {rows} numbers as a list, not the string {value!r}"
    if isinstance(value, dict):
        keys = ", ".join(sorted(map(str, value)))
        return f"takes {rows} numbers as a list ([1, 2, 3] for x, y, z), not an object ({{{keys}}})"
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return f"takes {rows} numbers as a list, not the single number {value!r} (set one item with a path ending in [0])"
    if not isinstance(value, list):
        return None
    if len(value) not in (length, rows):
        return f"takes {rows} values, not {len(value)}"
    for index, item in enumerate(value):
        items = item if isinstance(item, list) else [item]
        if any(part is None for part in items):
            return f"item {index} is null (JSON has no NaN or Infinity: give a finite number)"
    return None


def from_json(value: Any, prop=None, resolve=None) -> Any:
    """A JSON value as Python for an RNA property ``prop`` (optional): ``{"$path": ...}`` is
    resolved by ``resolve(path)`` to a data-block or struct; lists become tuples (sets for enum
    flags)."""
    if isinstance(value, dict):
        if set(value) == {"$path"} and resolve is not None:
            return resolve(value["$path"])
        return {key: from_json(item, None, resolve) for key, item in value.items()}
    if isinstance(value, list):
        if prop is not None and prop.type == "ENUM" and prop.is_enum_flag:
            return set(value)
        return tuple(from_json(item, None, resolve) for item in value)
    return value
