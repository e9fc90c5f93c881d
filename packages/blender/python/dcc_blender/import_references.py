"""The files an importer would follow from inside the file it reads, checked before it runs.

A glTF names its buffers and images by URI, an OBJ its ``.mtl`` libraries and those their
texture maps (``map_Kd`` and the like), an FBX its textures' ``FileName``/``RelativeFilename``, a
COLLADA file its images' ``init_from``, an X3D or VRML file its textures and inlines by ``url``,
a USD layer its assets as ``@path@``. Each reference is resolved as the importer resolves it
(relative to the file that holds it) and must lie inside the data folder; ``data:`` URIs are
kept in the file and need nothing. Formats that hold no references (PLY, STL, BVH, SVG, OpenVDB,
Alembic) pass; a format whose references cannot be read here (a binary USD crate) is refused.
No bpy needed except for FBX, which Blender's own FBX parser reads.
"""

from __future__ import annotations

import json
import os
import re
import struct
import xml.etree.ElementTree as ElementTree
from typing import Iterable, Iterator, List, Tuple
from urllib.parse import unquote

from .policy import IMPORT_RULE, PolicyRefusal

# Keywords of an .mtl line whose rest names a file.
_MTL_MAPS = re.compile(r"^\s*(map_\w+|bump|disp|decal|refl|norm)\b(.*)$", re.I)
_OBJ_MTLLIB = re.compile(r"^\s*mtllib\b(.*)$", re.I)
_URL = re.compile(r"\burl\s*(\[[^\]]*\]|\"[^\"]*\")", re.S)
_QUOTED = re.compile(r"\"([^\"]*)\"")
_USD_ASSET = re.compile(r"@@@(.*?)@@@|@([^@\n]+)@")
# More than this many bytes of a text format are not read: the importer itself would take long.
MAX_TEXT = 256 * 1024 * 1024


class UninspectableImport(Exception):
    """A file whose references cannot be read here."""


def _text(path: str) -> str:
    with open(path, "rb") as handle:
        return handle.read(MAX_TEXT).decode("utf8", "replace")


def _uri_path(uri: str) -> str:
    if uri.lower().startswith("file://"):
        uri = uri[7:]
    return unquote(uri)


def _gltf(path: str) -> Iterator[Tuple[str, str]]:
    if path.lower().endswith(".glb"):
        with open(path, "rb") as handle:
            header = handle.read(20)
            if len(header) < 20 or header[:4] != b"glTF":
                return
            length, kind = struct.unpack("<I4s", header[12:20])
            if kind != b"JSON":
                return
            document = json.loads(handle.read(length).decode("utf8"))
    else:
        try:
            document = json.loads(_text(path))
        except ValueError:
            return  # not JSON: the importer fails on it without following anything
    for key in ("buffers", "images"):
        for index, item in enumerate(document.get(key) or []):
            uri = item.get("uri") if isinstance(item, dict) else None
            if isinstance(uri, str) and not uri.startswith("data:"):
                yield f"{key}[{index}].uri", _uri_path(uri)


def _candidates(rest: str) -> Iterable[str]:
    # The path is what follows the options, and may hold spaces: every token and the whole rest
    # are checked, so no reading of the options can hide one.
    rest = rest.strip()
    if rest:
        yield rest
        yield from rest.split()


def _obj(path: str) -> Iterator[Tuple[str, str]]:
    folder = os.path.dirname(path)
    for number, line in enumerate(_text(path).splitlines(), 1):
        match = _OBJ_MTLLIB.match(line)
        if match is None:
            continue
        for name in _candidates(match.group(1)):
            yield f"mtllib (line {number})", name
            library = os.path.join(folder, name)
            if os.path.isfile(library):
                for label, target in _mtl(library):
                    yield f"{name}: {label}", target


def _mtl(path: str) -> Iterator[Tuple[str, str]]:
    # Texture maps are taken relative to the .mtl's own folder.
    folder = os.path.dirname(path)
    for number, line in enumerate(_text(path).splitlines(), 1):
        match = _MTL_MAPS.match(line)
        if match is not None:
            for name in _candidates(match.group(2)):
                yield f"{match.group(1)} (line {number})", os.path.join(folder, name)


def _fbx(path: str) -> Iterator[Tuple[str, str]]:
    from io_scene_fbx import parse_fbx  # Blender's own reader, as the importer uses it

    try:
        root, _version = parse_fbx.parse(path)
    except Exception:
        return  # not an FBX the importer reads
    stack = [root]
    while stack:
        element = stack.pop()
        stack.extend(element.elems)
        name = element.id.decode("utf8", "replace") if isinstance(element.id, bytes) else str(element.id)
        if name in ("FileName", "Filename", "RelativeFilename"):
            for value in element.props:
                if isinstance(value, bytes):
                    yield name, value.decode("utf8", "replace")
        elif name == "P" and element.props and element.props[0] in (b"Path", b"RelPath", b"FileName"):
            for value in element.props[4:]:
                if isinstance(value, bytes):
                    yield f"property {element.props[0].decode()}", value.decode("utf8", "replace")


def _collada(path: str) -> Iterator[Tuple[str, str]]:
    try:
        tree = ElementTree.parse(path)
    except (ElementTree.ParseError, OSError):
        return
    for element in tree.iter():
        tag = element.tag.rsplit("}", 1)[-1]
        if tag == "init_from" and element.text and element.text.strip():
            yield "init_from", _uri_path(element.text.strip())
        for attribute in ("url", "source"):
            value = element.get(attribute)
            if value and not value.startswith("#"):
                yield f"<{tag} {attribute}>", _uri_path(value)


def _x3d(path: str) -> Iterator[Tuple[str, str]]:
    text = _text(path)
    for match in _URL.finditer(text):
        for value in _QUOTED.findall(match.group(1)):
            yield "url", _uri_path(value)
    if path.lower().endswith(".x3d"):
        for match in re.finditer(r"\burl\s*=\s*(['\"])(.*?)\1", text, re.S):
            values = _QUOTED.findall(match.group(2).replace("&quot;", '"')) or [match.group(2)]
            for value in values:
                yield "url", _uri_path(value)


def _usd(path: str) -> Iterator[Tuple[str, str]]:
    with open(path, "rb") as handle:
        head = handle.read(8)
    if path.lower().endswith((".usdc", ".usdz")) or head.startswith((b"PXR-USDC", b"PK")):
        raise UninspectableImport("a binary USD file, whose references cannot be read before importing")
    for match in _USD_ASSET.finditer(_text(path)):
        yield "asset path", match.group(1) or match.group(2)


_READERS = {
    ".gltf": _gltf,
    ".glb": _gltf,
    ".obj": _obj,
    ".mtl": _mtl,
    ".fbx": _fbx,
    ".dae": _collada,
    ".x3d": _x3d,
    ".wrl": _x3d,
    ".usd": _usd,
    ".usda": _usd,
    ".usdc": _usd,
    ".usdz": _usd,
}


def references(path: str) -> List[Tuple[str, str]]:
    """(where, reference) for each file ``path`` names inside itself, as written."""
    reader = _READERS.get(os.path.splitext(path)[1].lower())
    if reader is None or not os.path.isfile(path):
        return []
    return list(reader(path))


def check_import(policy, operator: str, path: str) -> None:
    """Raises ``PolicyRefusal`` naming the first reference of ``path`` that resolves outside the
    data folder (absolute, ``..``, a URL), or a file whose references cannot be read."""
    if policy.lifted(IMPORT_RULE, operator):
        return
    shown = policy.relative(path)
    try:
        found = references(path)
    except UninspectableImport as error:
        raise PolicyRefusal(IMPORT_RULE, f"{operator} of {shown!r} is refused (rule {IMPORT_RULE!r}): it is {error}") from None
    folder = os.path.dirname(path)
    for where, reference in found:
        if re.match(r"^[a-z][a-z0-9+.-]*://", reference, re.I):
            target = reference
        else:
            target = os.path.normpath(os.path.join(folder, reference))
            if policy.inside(target):
                continue
        raise PolicyRefusal(
            IMPORT_RULE,
            f"{operator} of {shown!r} is refused (rule {IMPORT_RULE!r}): its {where} names "
            f"{reference!r}, which resolves to {target!r}, outside the data folder {policy.data_dir!r}",
        )
