"""Every file path stored in the open .blend, checked against the data folder when a file
operation is about to use it.

A path that was inside when it was set can point outside later: a ``//`` path is relative to the
.blend's folder, which a save to another folder (``relative_remap: false``) moves; a file another
user dropped into the data folder may hold any path. So before an operator that writes or reads
files at stored paths (``image.save_all_modified``, a render, a bake, an export that copies
textures) and before a save, every stored path is resolved as Blender will resolve it and must lie
inside. The paths are found by walking each data-block's own data down to every property
``path_options`` names, following only the properties that can lead to one (computed once from
Blender's RNA types). A File Output node's outputs are its base path joined with each slot's path,
as the compositor joins them.
"""

from __future__ import annotations

import os
from typing import Dict, Iterator, List, Optional, Set, Tuple

import bpy

from . import compat, path_options
from .paths import Step, format_path

# Data-blocks of the user interface: a file browser's folder there is no stored file path.
_SKIPPED = frozenset({"window_managers", "screens", "workspaces"})
# Types whose paths are never read or written: a library weak reference only names the library
# an appended data-block came from (Blender 5's factory brushes name its own asset files).
_NOT_STORED = frozenset({"LibraryWeakReference"})
MAX_DEPTH = 12

_follow: Dict[str, Tuple[str, ...]] = {}
_paths: Dict[str, Tuple[str, ...]] = {}
_ready: List[bool] = []


def _is_id(rna) -> bool:
    while rna is not None:
        if rna.identifier == "ID":
            return True
        rna = rna.base
    return False


def _prepare() -> None:
    """Which properties of each RNA type hold paths, and which lead (through data the type owns,
    not other data-blocks) to a type that does: a fixed point over every type and its subtypes."""
    if _ready:
        return
    types = {}
    for name in dir(bpy.types):
        rna = getattr(getattr(bpy.types, name, None), "bl_rna", None)
        if rna is not None and rna.identifier == name:
            types[name] = rna
    family: Dict[str, Set[str]] = {name: {name} for name in types}
    for name, rna in types.items():
        base = rna.base
        while base is not None:
            family.setdefault(base.identifier, {base.identifier}).add(name)
            base = base.base
    holds: Set[str] = set()
    for name, rna in types.items():
        if name in _NOT_STORED:
            continue
        found = tuple(p.identifier for p in rna.properties if p.type == "STRING" and not p.is_readonly and path_options.property_kind(rna, p))
        if found:
            _paths[name] = found
            holds.add(name)
    links: Dict[str, List[Tuple[str, str]]] = {}
    for name, rna in types.items():
        for prop in rna.properties:
            if prop.type in ("POINTER", "COLLECTION") and prop.identifier != "rna_type":
                target = prop.fixed_type
                if target is not None and not _is_id(target):
                    links.setdefault(name, []).append((prop.identifier, target.identifier))
    reaches = set(holds)
    changed = True
    while changed:
        changed = False
        for name in types:
            if name in reaches:
                continue
            if any(any(t in reaches for t in family.get(target, {target})) for _, target in links.get(name, ())):
                reaches.add(name)
                changed = True
    for name, pairs in links.items():
        follow = tuple(p for p, target in pairs if any(t in reaches for t in family.get(target, {target})))
        if follow:
            _follow[name] = follow
    _ready.append(True)


def stored_paths() -> Iterator[Tuple[str, object, str]]:
    """(path of the property, its owner, property name) for every stored path of the open file."""
    _prepare()
    seen: Set[int] = set()
    for collection in compat.data_collections(_SKIPPED):
        for block in getattr(bpy.data, collection):
            steps = [Step("attr", collection), Step("key", block.name)]
            yield from _walk(block, steps, seen, 0)


def _walk(struct, steps, seen: Set[int], depth: int):
    try:
        pointer = struct.as_pointer()
    except (AttributeError, ReferenceError):
        return
    if pointer in seen or depth > MAX_DEPTH:
        return
    seen.add(pointer)
    name = struct.bl_rna.identifier
    for prop in _paths.get(name, ()):
        yield format_path("data", steps + [Step("attr", prop)]), struct, prop
    for prop in _follow.get(name, ()):
        try:
            value = getattr(struct, prop)
        except (AttributeError, RuntimeError, ReferenceError):
            continue
        if value is None:
            continue
        if isinstance(value, bpy.types.bpy_prop_collection):
            for index, item in enumerate(value):
                named = getattr(item, "name", None) if "name" in item.bl_rna.properties.keys() else None
                key = Step("key", named) if isinstance(named, str) and named else Step("index", index)
                yield from _walk(item, steps + [Step("attr", prop), key], seen, depth + 1)
        elif isinstance(value, bpy.types.bpy_struct):
            yield from _walk(value, steps + [Step("attr", prop)], seen, depth + 1)


def _resolve(policy, value: str, blend_dir: Optional[str]) -> str:
    if value.startswith("//"):
        return policy.resolve(value, blend_dir or policy.data_dir)
    return policy.resolve(value)


def problems(policy, blend_dir: Optional[str]) -> List[str]:
    """Each stored path that resolves outside the data folder, taking ``//`` from
    ``blend_dir`` (the .blend's folder now, or after the save about to happen), as
    ``'<path>' = '<value>' (resolves to '<absolute>')``."""
    found = []
    for label, owner, prop in stored_paths():
        value = getattr(owner, prop, "")
        if isinstance(value, bytes):
            value = value.decode("utf8", "replace")
        if not isinstance(value, str) or value == "" or value.startswith("<"):
            continue  # "<builtin>": Blender's own font
        if path_options.property_kind(owner.bl_rna, owner.bl_rna.properties[prop]) == "name":
            if "/" in value or "\\" in value or value in (".", ".."):
                found.append(f"{label} = {value!r} (a file name or suffix must not name a folder)")
            continue
        absolute = _resolve(policy, value, blend_dir)
        if not policy.inside(absolute):
            found.append(f"{label} = {value!r} (resolves to {absolute!r})")
    found.extend(_file_output_problems(policy, blend_dir))
    return found


def _node_trees():
    for scene in bpy.data.scenes:
        tree = compat.scene_embedded_tree(scene)
        if tree is not None:
            yield [Step("attr", "scenes"), Step("key", scene.name), Step("attr", "node_tree")], tree
    for tree in bpy.data.node_groups:
        yield [Step("attr", "node_groups"), Step("key", tree.name)], tree


def _file_output_problems(policy, blend_dir: Optional[str]) -> List[str]:
    """The outputs of every File Output node: its base path joined with each slot's path, as the
    compositor joins them (a slot's leading '/' is dropped, '..' is kept), frame digits in
    place of '#'."""
    found = []
    for steps, tree in _node_trees():
        for node in tree.nodes:
            if node.bl_idname != "CompositorNodeOutputFile":
                continue
            folder = compat.file_output_folder(node)
            base = _resolve(policy, folder, blend_dir) if folder else policy.data_dir
            node_steps = steps + [Step("attr", "nodes"), Step("key", node.name)]
            for tail, path in compat.file_output_paths(node, base):
                label = format_path("data", node_steps + tail)
                path = os.path.normpath(path.replace("#", "0"))
                problem = f"{label} writes {path!r}"
                if not policy.inside(path) and problem not in found:
                    found.append(problem)
    return found


def refusal(policy, what: str, blend_dir: Optional[str]):
    """A ``PolicyRefusal`` for ``what`` naming the stored paths outside the data folder, or None."""
    from .policy import DATA_FOLDER_RULE, PolicyRefusal

    if policy.lifted(DATA_FOLDER_RULE):
        return None
    found = problems(policy, blend_dir)
    if not found:
        return None
    shown = "; ".join(found[:5]) + (f"; and {len(found) - 5} more" if len(found) > 5 else "")
    return PolicyRefusal(
        DATA_FOLDER_RULE,
        f"{what} is refused (rule {DATA_FOLDER_RULE!r}): stored paths it would use resolve outside "
        f"the data folder {policy.data_dir!r}: {shown}. Set them to paths inside first.",
    )


def blend_dir() -> Optional[str]:
    """The open .blend's folder ('//' paths start there), or None while it is unsaved."""
    return os.path.dirname(bpy.data.filepath) if bpy.data.filepath else None


def relative_meanings(policy) -> List[Tuple[str, object, str, str]]:
    """(path of the property, owner, property, absolute path) of every stored ``//`` path of a
    saved file, as it resolves now."""
    base = blend_dir()
    if base is None:
        return []
    meanings = []
    for label, owner, prop in stored_paths():
        value = getattr(owner, prop, "")
        if isinstance(value, str) and value.startswith("//"):
            meanings.append((label, owner, prop, policy.resolve(value, base)))
    return meanings


def repair_after_save(policy, meanings) -> List[str]:
    """After a save moved the file: each ``//`` path Blender did not remap (a render output, a
    File Output base path, a generated image's path) and that now resolves outside is pointed
    again, relative to the new folder, at what it meant before the save. Returns the paths of
    the properties repaired."""
    base = blend_dir()
    repaired = []
    for label, owner, prop, before in meanings:
        try:
            value = getattr(owner, prop)
        except ReferenceError:
            continue
        if not isinstance(value, str) or not value.startswith("//") or base is None:
            continue
        if policy.inside(policy.resolve(value, base)) or not policy.inside(before):
            continue
        trailing = os.sep if value.endswith(("/", os.sep)) else ""
        setattr(owner, prop, "//" + os.path.relpath(before, base) + trailing)
        repaired.append(label)
    return repaired
