"""Which string options and RNA properties name a file or a folder (no bpy needed).

A value becomes a path when Blender says so (the ``FILE_PATH``, ``DIR_PATH`` and ``FILE_NAME``
subtypes) but also when only its name or its description says so: ``export_scene.gltf``'s
``export_texture_dir`` ("Folder to place texture files in") and a File Output slot's ``path``
("Subpath used for this slot") have no subtype. :func:`path_option_kind` classifies one string
property from its identifier, subtype and description; ``scripts/generate-path-options.mjs`` runs
it over every operator option and RNA property of Blender and commits the result as
``path_options.generated.json`` beside this file, which the policy reads. Operators and types it
does not list (add-ons) are classified live by the same function.

Kinds: ``file`` (a file, or a file prefix such as a render output), ``folder``, ``name`` (a bare
file name or suffix: no folder allowed). ``None``: not a file path (a data path, an OpenXR path,
an archive's object path...).
"""

from __future__ import annotations

import json
import os
import re
from typing import Dict, Optional

SUBTYPE_KINDS = {"FILE_PATH": "file", "DIR_PATH": "folder", "FILE_NAME": "name"}

# Words of an identifier that make it a path: ``export_texture_dir``, ``cache_directory``,
# ``image_output_path``, ``file_suffix``, ``uri``.
FOLDER_WORDS = frozenset({"dir", "dirpath", "directory", "folder"})
FILE_WORDS = frozenset({"file", "filepath", "filename", "path", "uri", "subpath"})
NAME_WORDS = frozenset({"suffix", "prefix", "extension"})
# Descriptions that say a path is not a file path but a path inside Blender or another format.
NOT_FILE = re.compile(
    r"data[- ]?path|rna path|path of (the )?property|path to property|openxr|"
    r"\barchive\b|\bcatalog\b|path of id|object path|component path|user path",
    re.I,
)
DESCRIPTION_FOLDER = re.compile(r"\b(folder|directory)\b", re.I)
DESCRIPTION_FILE = re.compile(r"\b(file ?path|file|filename|sub ?path)\b", re.I)


def path_option_kind(identifier: str, subtype: str, description: str = "") -> Optional[str]:
    """The kind of path a string property holds (``file``, ``folder``, ``name``) or None."""
    kind = SUBTYPE_KINDS.get(subtype)
    if kind is not None:
        return kind
    description = description or ""
    words = set(identifier.lower().split("_"))
    if NOT_FILE.search(description) or identifier.startswith("data_path"):
        return None
    if words & FOLDER_WORDS:
        return "folder"
    if words & FILE_WORDS:
        if words & NAME_WORDS:
            return "name"
        return "folder" if DESCRIPTION_FOLDER.search(description) and not DESCRIPTION_FILE.search(description) else "file"
    if words & NAME_WORDS and ("file" in identifier or DESCRIPTION_FILE.search(description)):
        return "name"
    if DESCRIPTION_FOLDER.search(description) and re.search(r"\b(to|in|of|for)\b", description):
        return "folder"
    return None


HERE = os.path.dirname(os.path.abspath(__file__))
_table: Dict[str, Dict[str, Dict[str, str]]] = {}


def generated_path(version: str) -> str:
    """The generated table of Blender ``version`` (``5.2.2``, not ``5.2.2 LTS``)."""
    return os.path.join(HERE, f"path_options-{version.split()[0]}.generated.json")


def _running_version() -> str:
    try:
        import bpy  # noqa: PLC0415 - only inside Blender

        return bpy.app.version_string
    except ImportError:
        return "3.4.1"


def table(version: Optional[str] = None) -> Dict[str, Dict[str, Dict[str, str]]]:
    """The generated table of the running Blender (or ``version``): ``operators`` (operator ->
    option -> kind) and ``types`` (RNA type -> property -> kind, the type that defines the
    property). Empty for a Blender no table was generated for: the live classification then
    decides alone."""
    if version is not None:
        return _read(generated_path(version))
    if not _table:
        _table.update(_read(generated_path(_running_version())))
    return _table


def _read(path: str) -> Dict[str, Dict[str, Dict[str, str]]]:
    try:
        with open(path, encoding="utf8") as handle:
            return json.load(handle)
    except FileNotFoundError:
        return {"blender": None, "operators": {}, "types": {}}


def operator_option_kind(operator: str, prop) -> Optional[str]:
    """The path kind of ``operator``'s option ``prop`` (a bpy RNA property): its subtype's in the
    running Blender first, then the generated table's, else the live classification (an add-on's
    operator, a newer Blender)."""
    if prop.type != "STRING":
        return None
    by_subtype = SUBTYPE_KINDS.get(prop.subtype)
    if by_subtype is not None:
        return by_subtype
    listed = table()["operators"].get(operator, {}).get(prop.identifier)
    return listed or path_option_kind(prop.identifier, prop.subtype, prop.description)


def property_kind(rna, prop) -> Optional[str]:
    """The path kind of the RNA property ``prop`` of the type ``rna`` (``bl_rna``): its subtype's
    in the running Blender first, then the generated table's for the type or one of its bases,
    else the live classification."""
    if prop.type != "STRING":
        return None
    by_subtype = SUBTYPE_KINDS.get(prop.subtype)
    if by_subtype is not None:
        return by_subtype
    types = table()["types"]
    current = rna
    while current is not None:
        listed = types.get(current.identifier, {}).get(prop.identifier)
        if listed is not None:
            return listed
        current = current.base
    return path_option_kind(prop.identifier, prop.subtype, prop.description)
