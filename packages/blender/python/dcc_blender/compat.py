"""What differs between the Blenders the host runs in (3.4 to 5.2), in one place.

Every other module asks here instead of reading a data path that one version lacks:

- a scene's compositor nodes: ``scene.node_tree`` (embedded, up to 4.x) or
  ``scene.compositing_node_group`` (a node group of ``bpy.data.node_groups``, 5.x);
- the File Output node: ``base_path`` and ``file_slots`` (up to 4.x) or ``directory``,
  ``file_name`` and ``file_output_items`` (5.x);
- ``Node.type`` and the like: an enum up to 4.x, a plain string in 5.x;
- ``bpy.data.all_ids`` (5.x): every data-block again, so not a collection of its own kind;
- the EEVEE engine id: ``BLENDER_EEVEE`` (up to 4.1 and from 5.0), ``BLENDER_EEVEE_NEXT`` (4.2-4.5).
"""

from __future__ import annotations

import os
from typing import Iterator, List, Optional, Tuple

import bpy

from .paths import Step, format_path

# Blender's Python types, read once: ``bpy.types.<name>`` looks the type up by name each time
# (about a microsecond), and a data command tests its values against them a dozen times.
STRUCT_TYPE = bpy.types.bpy_struct
COLLECTION_TYPE = bpy.types.bpy_prop_collection
ARRAY_TYPE = bpy.types.bpy_prop_array
ID_TYPE = bpy.types.ID
MESH_TYPE = bpy.types.Mesh

# Collections of bpy.data that list data-blocks another collection lists too (5.x's
# ``all_ids``), or that are no data of the file (the window managers).
ALIAS_COLLECTIONS = frozenset({"all_ids"})


def data_collections(skip: frozenset = frozenset()) -> List[str]:
    """The names of bpy.data's collections of data-blocks, each data-block in exactly one of
    them (``all_ids`` left out), without those in ``skip``."""
    return [
        prop.identifier
        for prop in bpy.data.bl_rna.properties
        if prop.type == "COLLECTION" and prop.identifier not in ALIAS_COLLECTIONS and prop.identifier not in skip
    ]


def scene_tree_attribute() -> str:
    """The name of a scene's compositor node tree property in this Blender."""
    props = bpy.types.Scene.bl_rna.properties
    return "compositing_node_group" if "compositing_node_group" in props else "node_tree"


def scene_embedded_tree(scene):
    """The compositor node tree a scene owns (``scene.node_tree``, up to 4.x), or None: in 5.x
    the compositor's tree is a node group of ``bpy.data.node_groups``, found there."""
    if scene_tree_attribute() != "node_tree":
        return None
    return getattr(scene, "node_tree", None)


def scene_compositor_tree(scene):
    """The node tree a scene composites with, or None (whatever this Blender calls it)."""
    return getattr(scene, scene_tree_attribute(), None)


def enum_or_string_type(rna) -> Optional[str]:
    """``"ENUM"`` or ``"STRING"`` when items of RNA type ``rna`` have a ``type`` naming their kind
    (``Node.type`` is an enum up to 4.x, a string in 5.x), else None."""
    prop = rna.properties.get("type")
    if prop is None:
        return None
    if prop.type == "ENUM" and not prop.is_enum_flag:
        return "ENUM"
    if prop.type == "STRING":
        return "STRING"
    return None


def item_kind(item) -> str:
    """What kind of item ``item`` is: its ``type`` (``MESH``, ``BSDF_PRINCIPLED``) where it has one
    as an enum or a string, else its RNA type's identifier."""
    if enum_or_string_type(item.bl_rna) is not None:
        value = getattr(item, "type", None)
        if isinstance(value, str) and value:
            return value
    return item.bl_rna.identifier


def kinds_of(collection) -> set:
    """Every kind (see :func:`item_kind`) the items of ``collection`` can have: each RNA type's
    identifier, its enum's values, and the string types the items have now."""
    kinds = set()
    seen = set()
    for item in collection:
        rna = item.bl_rna
        flavour = enum_or_string_type(rna)
        if flavour == "STRING":
            kinds.add(item_kind(item))
        if rna.identifier in seen:
            continue
        seen.add(rna.identifier)
        kinds.add(rna.identifier)
        if flavour == "ENUM":
            kinds.update(entry.identifier for entry in rna.properties["type"].enum_items)
    return kinds


def eevee_engine() -> str:
    """This Blender's id of the EEVEE render engine."""
    items = bpy.types.RenderSettings.bl_rna.properties["engine"].enum_items.keys()
    for engine in ("BLENDER_EEVEE_NEXT", "BLENDER_EEVEE"):
        if engine in items:
            return engine
    return "BLENDER_EEVEE"


# Principled BSDF inputs renamed in Blender 4.0, both ways: a script written for one version
# is told the name the other uses.
PRINCIPLED_RENAMES = {
    "Subsurface": "Subsurface Weight",
    "Specular": "Specular IOR Level",
    "Sheen": "Sheen Weight",
    "Clearcoat": "Coat Weight",
    "Clearcoat Roughness": "Coat Roughness",
    "Clearcoat Normal": "Coat Normal",
    "Transmission": "Transmission Weight",
    "Emission": "Emission Color",
}
_RENAMED_BACK = {new: old for old, new in PRINCIPLED_RENAMES.items()}


def renamed_socket(key: str, names) -> Optional[str]:
    """The name this Blender gives a node socket that another version calls ``key``, if it has it."""
    other = PRINCIPLED_RENAMES.get(key) or _RENAMED_BACK.get(key)
    return other if other is not None and other in names else None


def principled_inputs() -> List[str]:
    """The input names of this Blender's Principled BSDF node."""
    tree = bpy.data.node_groups.new("dcc-principled-inputs", "ShaderNodeTree")
    try:
        return [socket.name for socket in tree.nodes.new("ShaderNodeBsdfPrincipled").inputs]
    finally:
        bpy.data.node_groups.remove(tree)


def vocabulary() -> dict:
    """What this Blender calls things that other versions name differently."""
    return {
        "blender": bpy.app.version_string,
        "eevee": eevee_engine(),
        "engines": render_engines(),
        "principledInputs": principled_inputs(),
    }


def render_engines() -> List[str]:
    """The render engine ids this Blender knows (add-on engines included)."""
    return list(bpy.types.RenderSettings.bl_rna.properties["engine"].enum_items.keys())


def action_fcurves(action) -> List[Tuple[str, object]]:
    """(path inside the action, F-curves) of each F-curve list an action holds: ``fcurves`` up to
    4.x; in 5.x, one per channel bag of each strip of each layer."""
    if "fcurves" in action.bl_rna.properties:
        return [("fcurves", action.fcurves)]
    found = []
    for layer in getattr(action, "layers", ()):
        for strip_index, strip in enumerate(layer.strips):
            for bag_index, bag in enumerate(getattr(strip, "channelbags", ())):
                path = format_path("data", [Step("attr", "layers"), Step("key", layer.name), Step("attr", "strips"), Step("index", strip_index), Step("attr", "channelbags"), Step("index", bag_index), Step("attr", "fcurves")])
                found.append((path, bag.fcurves))
    return found


def file_output_paths(node, base: str) -> Iterator[Tuple[List[Step], str]]:
    """(steps to the property, path before frame numbers) of each file a compositor File Output node writes,
    ``base`` being its folder already resolved. Up to 4.x: the base path joined with each slot's
    path (a slot's leading '/' dropped, as the compositor does, and kept, to be safe). In 5.x: the
    folder joined with the file name and each item's name."""
    if hasattr(node, "file_slots"):
        yield [Step("attr", "base_path")], base
        if node.format.file_format == "OPEN_EXR_MULTILAYER":
            return
        for index, slot in enumerate(node.file_slots):
            label = [Step("attr", "file_slots"), Step("index", index), Step("attr", "path")]
            for joined in (os.path.join(base, slot.path.lstrip("/\\")), os.path.join(base, slot.path)):
                yield label, joined
        return
    yield [Step("attr", "directory")], base
    name = getattr(node, "file_name", "") or ""
    yield [Step("attr", "file_name")], os.path.join(base, name)
    for index, item in enumerate(getattr(node, "file_output_items", ())):
        label = [Step("attr", "file_output_items"), Step("index", index), Step("attr", "name")]
        for joined in (os.path.join(base, name + item.name), os.path.join(base, name, item.name)):
            yield label, joined


def file_output_folder(node) -> str:
    """A File Output node's folder as stored (``base_path`` up to 4.x, ``directory`` in 5.x)."""
    return getattr(node, "base_path", None) if hasattr(node, "file_slots") else getattr(node, "directory", "")
