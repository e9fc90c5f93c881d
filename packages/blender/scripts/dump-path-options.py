# Runs inside Blender (started by generate-path-options.mjs):
#   blender -b --factory-startup --disable-autoexec --python-exit-code 1 \
#     --python dump-path-options.py -- OUT_JSON
# Classifies every string option of every bpy.ops operator and every string property of every
# RNA type (on the type that defines it, not again on its subclasses) with
# dcc_blender.path_options.path_option_kind, and writes those that name a file or a folder.
import json
import os
import sys

import bpy
from _bpy import ops as _ops  # dir() lists every "MOD_OT_name"

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
from dcc_blender.path_options import path_option_kind  # noqa: E402

out_path = sys.argv[sys.argv.index("--") + 1]


def kinds(properties, inherited=frozenset()):
    found = {}
    for prop in properties:
        if prop.type != "STRING" or prop.identifier in inherited:
            continue
        kind = path_option_kind(prop.identifier, prop.subtype, prop.description)
        if kind is not None:
            found[prop.identifier] = kind
    return found


operators = {}
for idname in _ops.dir():
    module, _, name = idname.partition("_OT_")
    operator = f"{module.lower()}.{name}"
    rna = getattr(getattr(bpy.ops, module.lower()), name).get_rna_type()
    found = kinds(rna.properties)
    if found:
        operators[operator] = found

types = {}
for name in dir(bpy.types):
    rna = getattr(getattr(bpy.types, name), "bl_rna", None)
    if rna is None or rna.identifier != name:
        continue
    inherited = frozenset(p.identifier for p in rna.base.properties) if rna.base is not None else frozenset()
    found = kinds(rna.properties, inherited)
    if found:
        types[name] = found

with open(out_path, "w", encoding="utf8") as handle:
    json.dump({"blender": bpy.app.version_string, "operators": operators, "types": types}, handle)
