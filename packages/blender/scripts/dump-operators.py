# Runs inside Blender (started by generate-catalog.mjs):
#   blender -b --factory-startup --disable-autoexec --python-exit-code 1 \
#     --python dump-operators.py -- OUT_JSON PROGRESS_FILE [SKIP_KEY ...]
# Writes every bpy.ops operator with its RNA properties and the contexts (mode x editor) in which
# its poll() passes. Before each poll it appends "MODE/AREA/ID" to PROGRESS_FILE, so when a poll
# crashes Blender the caller can read the last line and pass "AREA/ID" back as a SKIP_KEY: that
# poll is then left out in every mode. "-" is no area; "*/ID" skips ID under every area override.
import json
import os
import sys

import bpy
from _bpy import ops as _ops  # dir() lists every "MOD_OT_name"

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
from dcc_blender.operator_dump import operator_entry  # noqa: E402

arguments = sys.argv[sys.argv.index("--") + 1 :]
out_path, progress_path = arguments[0], arguments[1]
skip = set(arguments[2:])
context = bpy.context
window = context.window_manager.windows[0]
screen = window.screen
# --- scene set-up: one object per mode, animation, a text, a strip, an image ---
scene = context.scene
cube = bpy.data.objects["Cube"]
for frame in (1, 10):
    cube.location.x = frame / 10
    cube.keyframe_insert("location", frame=frame)
scene.frame_set(1)
text = bpy.data.texts.new("Text")
text.write("print('hello')\n")
editor = scene.sequence_editor_create()
# Blender 5 calls a sequence editor's strips `strips`, earlier versions `sequences`.
strips = editor.strips if hasattr(editor, "strips") else editor.sequences
strip = strips.new_effect(name="Color", type="COLOR", channel=1, frame_start=1, length=10) if "length" in strips.bl_rna.functions["new_effect"].parameters.keys() else strips.new_effect(name="Color", type="COLOR", channel=1, frame_start=1, frame_end=10)
strip.select = True
image = bpy.data.images.new("Image", 8, 8)
material = cube.active_material

objects = {"MESH": cube}
for kind, add in (
    ("ARMATURE", lambda: bpy.ops.object.armature_add()),
    ("CURVE", lambda: bpy.ops.curve.primitive_bezier_curve_add()),
    ("FONT", lambda: bpy.ops.object.text_add()),
    ("LATTICE", lambda: bpy.ops.object.add(type="LATTICE")),
    ("META", lambda: bpy.ops.object.metaball_add()),
    # Grease Pencil 3 (Blender 4.3 on) has an operator and modes of its own.
    ("GPENCIL", lambda: bpy.ops.object.gpencil_add(type="STROKE")),
    ("GREASEPENCIL", lambda: bpy.ops.object.grease_pencil_add(type="STROKE")),
):
    try:
        add()
    except (AttributeError, TypeError, RuntimeError):
        continue  # this Blender has no such object type (or adds it differently)
    objects[kind] = context.active_object

# Mode name (as bpy.context.mode reports it) -> object type and the mode_set argument. Modes a
# Blender does not have (its object type or mode_set value missing) are left out.
MODES = [
    ("OBJECT", "MESH", "OBJECT"),
    ("EDIT_MESH", "MESH", "EDIT"),
    ("SCULPT", "MESH", "SCULPT"),
    ("PAINT_VERTEX", "MESH", "VERTEX_PAINT"),
    ("PAINT_WEIGHT", "MESH", "WEIGHT_PAINT"),
    ("PAINT_TEXTURE", "MESH", "TEXTURE_PAINT"),
    ("EDIT_CURVE", "CURVE", "EDIT"),
    ("EDIT_TEXT", "FONT", "EDIT"),
    ("EDIT_LATTICE", "LATTICE", "EDIT"),
    ("EDIT_METABALL", "META", "EDIT"),
    ("EDIT_ARMATURE", "ARMATURE", "EDIT"),
    ("POSE", "ARMATURE", "POSE"),
    ("EDIT_GPENCIL", "GPENCIL", "EDIT_GPENCIL"),
    ("PAINT_GPENCIL", "GPENCIL", "PAINT_GPENCIL"),
    ("SCULPT_GPENCIL", "GPENCIL", "SCULPT_GPENCIL"),
    ("WEIGHT_GPENCIL", "GPENCIL", "WEIGHT_GPENCIL"),
    ("EDIT_GREASE_PENCIL", "GREASEPENCIL", "EDIT"),
    ("PAINT_GREASE_PENCIL", "GREASEPENCIL", "PAINT_GREASE_PENCIL"),
    ("SCULPT_GREASE_PENCIL", "GREASEPENCIL", "SCULPT_GREASE_PENCIL"),
    ("WEIGHT_GREASE_PENCIL", "GREASEPENCIL", "WEIGHT_GREASE_PENCIL"),
]

# Editor name in the catalog -> the area's ui_type. The first, None, is no window, area or region.
AREAS = [
    (None, None),
    ("VIEW_3D", "VIEW_3D"),
    ("IMAGE_EDITOR", "IMAGE_EDITOR"),
    ("UV_EDITOR", "UV"),
    ("NODE_EDITOR", "ShaderNodeTree"),
    ("SEQUENCE_EDITOR", "SEQUENCE_EDITOR"),
    ("CLIP_EDITOR", "CLIP_EDITOR"),
    ("GRAPH_EDITOR", "FCURVES"),
    ("DOPESHEET_EDITOR", "DOPESHEET"),
    ("NLA_EDITOR", "NLA_EDITOR"),
    ("TEXT_EDITOR", "TEXT_EDITOR"),
    ("OUTLINER", "OUTLINER"),
    ("PROPERTIES", "PROPERTIES"),
    ("CONSOLE", "CONSOLE"),
    ("INFO", "INFO"),
    ("SPREADSHEET", "SPREADSHEET"),
]
# The timeline area is repurposed for every editor but the 3D viewport, which has its own area.
view3d_area = next(a for a in screen.areas if a.type == "VIEW_3D")
spare_area = next(a for a in screen.areas if a.type == "DOPESHEET_EDITOR")


def enter_mode(object_type, mode):
    if context.mode != "OBJECT":
        bpy.ops.object.mode_set(mode="OBJECT")
    target = objects[object_type]
    for other in context.view_layer.objects:
        other.select_set(other == target)
    context.view_layer.objects.active = target
    if mode != "OBJECT":
        bpy.ops.object.mode_set(mode=mode)


def area_override(ui_type):
    area = view3d_area
    if ui_type != "VIEW_3D":
        area = spare_area
        area.ui_type = ui_type
        space = area.spaces.active
        if ui_type == "TEXT_EDITOR":
            space.text = text
        elif ui_type in ("IMAGE_EDITOR", "UV"):
            space.image = image
        elif ui_type == "ShaderNodeTree":
            space.node_tree = material.node_tree
    region = next(r for r in area.regions if r.type == "WINDOW")
    return dict(window=window, screen=screen, area=area, region=region)


entries = []
operators = []
for idname in sorted(_ops.dir()):
    entry, operator = operator_entry(idname)
    entries.append(entry)
    operators.append(operator)
passed = [[] for _ in entries]
progress = os.open(progress_path, os.O_WRONLY | os.O_CREAT | os.O_APPEND)
skipped = []


def poll_all(mode, area_name, wanted):
    for index in wanted:
        entry = entries[index]
        area_key = f"{area_name or '-'}/{entry['name']}"
        key = f"{mode}/{area_key}"
        if area_key in skip or (area_name is not None and f"*/{entry['name']}" in skip):
            skipped.append(key)
            continue
        os.write(progress, (key + "\n").encode())
        try:
            ok = bool(operators[index].poll())
        except Exception:
            ok = False
        if ok:
            passed[index].append((mode, area_name))


# Entering a mode can add data (Vertex Paint adds a color attribute to the cube), which changes
# later polls; entering every mode once first makes the results independent of the poll order.
# A mode this Blender lacks, or that it reports under another name, is left out.
available = []
for mode, object_type, mode_argument in MODES:
    if object_type not in objects:
        continue
    try:
        enter_mode(object_type, mode_argument)
    except (TypeError, RuntimeError):
        continue
    if context.mode == mode:
        available.append((mode, object_type, mode_argument))
MODES = available

# First every mode without an editor, then the editors: an operator that passed without one
# somewhere needs no editor, so under the editors it is polled only until it passes in that mode
# (which is all the mode list needs); the others are polled under every editor.
everything = range(len(entries))
for mode, object_type, mode_argument in MODES:
    enter_mode(object_type, mode_argument)
    poll_all(mode, None, everything)
plain = [any(area is None for _, area in contexts) for contexts in passed]
for mode, object_type, mode_argument in MODES:
    enter_mode(object_type, mode_argument)
    in_mode = [any(m == mode for m, _ in contexts) for contexts in passed]
    for area_name, ui_type in AREAS[1:]:
        wanted = [i for i in everything if not plain[i] or not in_mode[i]]
        with context.temp_override(**area_override(ui_type)):
            poll_all(mode, area_name, wanted)
        for i in wanted:
            in_mode[i] = in_mode[i] or any(m == mode for m, _ in passed[i])
os.close(progress)

mode_names = [mode for mode, _, _ in MODES]
for entry, contexts in zip(entries, passed):
    entry["poll"] = [f"{mode}/{area or '-'}" for mode, area in contexts]

with open(out_path, "w", encoding="utf-8") as out:
    json.dump(
        {
            "blender": bpy.app.version_string,
            "modes": mode_names,
            "areas": [name for name, _ in AREAS if name is not None],
            "skipped": sorted(skipped),
            "operators": entries,
        },
        out,
        sort_keys=True,
        separators=(",", ":"),
    )
