"""Every bpy.ops operator of the running Blender as the catalog describes it: label, description,
options and typed parameters, read from RNA (no poll() is run and nothing in the scene changes).

Shared by ``scripts/dump-operators.py`` (which adds where each poll() passes, in a Blender of its
own) and the ``blender.operators`` link method, which gives the adapter the commands of the
Blender it serves.
"""

from __future__ import annotations

import hashlib
import struct
from typing import Any, Dict, List

import bpy
from _bpy import ops as _ops  # dir() lists every "MOD_OT_name"

INT_MIN, INT_MAX, FLT_MAX = -(2**31), 2**31 - 1, 3.4e38


def shortest_float(value):
    """The shortest decimal that reads back as the same float32 (0.1, not 0.10000000149)."""
    try:
        packed = struct.pack("<f", value)
    except (OverflowError, struct.error):
        return value
    for digits in range(1, 10):
        candidate = float(f"{value:.{digits}g}")
        if struct.pack("<f", candidate) == packed:
            return int(candidate) if candidate.is_integer() else candidate
    return value


def plain(value, kind):
    if kind == "FLOAT":
        return shortest_float(value)
    if kind == "BOOLEAN":
        return bool(value)
    return value


def bound(value, kind, low):
    if kind == "FLOAT" and abs(value) >= FLT_MAX:
        return None
    if kind == "INT" and value == (INT_MIN if low else INT_MAX):
        return None
    return plain(value, kind)


def property_info(prop):
    kind = prop.type
    info = {"name": prop.identifier, "type": kind.lower()}
    if prop.subtype not in ("NONE", ""):
        info["subtype"] = prop.subtype.lower()
    if kind in ("BOOLEAN", "INT", "FLOAT"):
        length = prop.array_length
        if length > 0:
            info["length"] = length
            info["default"] = [plain(item, kind) for item in prop.default_array]
        else:
            info["default"] = plain(prop.default, kind)
        if kind != "BOOLEAN":
            for key, value, low in (("min", prop.hard_min, True), ("max", prop.hard_max, False)):
                value = bound(value, kind, low)
                if value is not None:
                    info[key] = value
    elif kind == "STRING":
        info["default"] = prop.default
    elif kind == "ENUM":
        items = [item.identifier for item in prop.enum_items]
        if prop.is_enum_flag:
            info["flag"] = True
            info["default"] = sorted(prop.default_flag)
        elif items:
            info["default"] = prop.default
        if items:
            info["items"] = items
        else:
            info["dynamic"] = True  # items built at run time from the context
    elif kind in ("POINTER", "COLLECTION") and prop.fixed_type is not None:
        info["struct"] = prop.fixed_type.identifier
    if prop.is_required:
        info["required"] = True
    if prop.description:
        info["description"] = prop.description.strip()
    return info


def operator_entry(idname):
    """(catalog entry, bpy.ops function) of the operator ``MOD_OT_name``."""
    module, _, name = idname.partition("_OT_")
    operator = getattr(getattr(bpy.ops, module.lower()), name)
    rna = operator.get_rna_type()
    entry = {
        "name": f"{module.lower()}.{name}",
        "label": rna.name,
        "description": rna.description.strip(),
        "options": sorted(rna.bl_options if hasattr(rna, "bl_options") else operator.bl_options),
        "params": [property_info(p) for p in rna.properties if p.identifier != "rna_type"],
    }
    return entry, operator



def operator_ids() -> List[str]:
    """Every operator's ``MOD_OT_name``, sorted."""
    return sorted(_ops.dir())


def build_key() -> str:
    """What identifies this Blender's commands: its version and build, and the operators it has
    (add-ons included), hashed. Two Blenders with the same key have the same catalog."""
    app = bpy.app
    digest = hashlib.sha256()
    for part in (app.version_string, app.build_hash, app.build_date, app.build_platform):
        digest.update(part if isinstance(part, bytes) else str(part).encode())
        digest.update(b"\0")
    for idname in operator_ids():
        digest.update(idname.encode() + b"\n")
    return digest.hexdigest()[:24]


def describe_operators() -> Dict[str, Any]:
    """``{"blender", "key", "operators"}``: every operator's entry (no poll results)."""
    entries = []
    for idname in operator_ids():
        try:
            entries.append(operator_entry(idname)[0])
        except Exception:  # noqa: BLE001 - an operator whose RNA cannot be read is left out
            continue
    return {"blender": bpy.app.version_string, "key": build_key(), "operators": entries}
