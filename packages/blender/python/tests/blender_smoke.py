"""Smoke test inside Blender: the handlers called directly (no socket) with a fake call.

    blender -b --factory-startup --disable-autoexec --python-exit-code 1 \
        --python packages/blender/python/tests/blender_smoke.py

Needs DCC_LINK_PYTHON_PATH or the repository layout (packages/link/python). Exits non-zero on
the first failure; prints SMOKE OK at the end.
"""

import os
import shutil
import sys
import tempfile
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
PYTHON = os.path.dirname(HERE)
LINK = os.environ.get("DCC_LINK_PYTHON_PATH") or os.path.join(PYTHON, "..", "..", "link", "python")
for folder in (PYTHON, os.path.abspath(LINK)):
    sys.path.insert(0, folder)

import bpy  # noqa: E402
from dcc_link import Call, HandlerError  # noqa: E402
from dcc_link.call import _enter, _leave  # noqa: E402

from dcc_blender.handlers import build_dispatcher, prepare  # noqa: E402
from dcc_blender.policy import Policy  # noqa: E402

data_dir = tempfile.mkdtemp(prefix="dcc-blender-smoke-")
policy = Policy(data_dir)
prepare(policy)
dispatcher = build_dispatcher(policy)
failures = []
counter = [0]


def call(method, params=None):
    counter[0] += 1
    reply = dispatcher.run(Call(counter[0], method, params or {}))
    if reply["type"] == "error":
        raise HandlerError(reply["error"]["code"], reply["error"]["message"], reply["error"].get("data"))
    return reply["result"]


def fails(code, method, params):
    try:
        result = call(method, params)
    except HandlerError as error:
        assert error.code == code, f"{method} {params}: expected {code}, got {error.code}: {error.message}"
        return error
    raise AssertionError(f"{method} {params}: expected {code}, got result {result!r}")


def check(name):
    def run(function):
        try:
            function()
            print(f"ok   {name}", flush=True)
        except Exception:
            failures.append(name)
            print(f"FAIL {name}\n{traceback.format_exc()}", flush=True)
        return function

    return run


@check("ping")
def _():
    result = call("ping")
    assert result["dataDir"] == os.path.realpath(data_dir), result
    assert result["blender"].startswith(bpy.app.version_string[:3])


@check("render output confined at start-up")
def _():
    assert bpy.context.scene.render.filepath == os.path.join(policy.data_dir, "renders") + os.sep


@check("sphere add reports created refs")
def _():
    result = call("blender.op", {"operator": "mesh.primitive_uv_sphere_add", "args": {"radius": 1, "location": [1, 0, 0]}})
    assert result["result"] == ["FINISHED"], result
    created = {(r["type"], r["name"]) for r in result["created"]}
    assert ("Object", "Sphere") in created and ("Mesh", "Sphere") in created, result
    assert {"type": "Object", "name": "Sphere", "path": 'objects["Sphere"]'} in result["created"], result
    assert result["active"] == "Sphere" and result["selected"] == ["Sphere"] and result["mode"] == "OBJECT", result
    assert result["removed"] == []


@check("delete reports removed")
def _():
    call("blender.op", {"operator": "mesh.primitive_cube_add", "args": {"location": [0, 5, 0]}})
    result = call("blender.op", {"operator": "object.delete"})
    assert {"type": "Object", "name": "Cube.001", "path": 'objects["Cube.001"]'} in result["removed"], result
    # A removed data-block carries the type it was created with.
    made = call("blender.op", {"operator": "object.light_add", "args": {"type": "SUN"}})
    assert {"type": "SunLight", "name": "Sun", "path": 'lights["Sun"]'} in made["created"], made
    call("blender.op", {"operator": "object.delete"})
    purged = call("blender.op", {"operator": "outliner.orphans_purge", "args": {"do_recursive": True}})
    assert {"type": "SunLight", "name": "Sun", "path": 'lights["Sun"]'} in purged["removed"], purged


@check("long change lists are cut and counted")
def _():
    for index in range(105):
        bpy.data.materials.new(f"Bulk{index:03d}")
    result = call("blender.op", {"operator": "outliner.orphans_purge", "args": {"do_recursive": True}})
    assert len(result["removed"]) == 100 and result["more"]["removed"] >= 5, result.get("more")
    assert "more" not in call("blender.op", {"operator": "object.select_all", "args": {"action": "DESELECT"}})


@check("data.get examples")
def _():
    assert call("data.get", {"path": 'objects["Cube"].location'}) == [0.0, 0.0, 0.0]
    selected = call("data.get", {"path": "context.selected_objects"})
    assert isinstance(selected, list)
    assert call("data.get", {"path": 'meshes["Cube"].vertices', "options": {"depth": 0}}) == 8
    assert call("data.get", {"path": "context.mode"}) == "OBJECT"
    assert call("data.get", {"path": "context.scene.render.engine"}).startswith("BLENDER_EEVEE")
    assert call("data.get", {"path": "scenes['Scene'].frame_current"}) == 1
    co = call("data.get", {"path": 'meshes["Cube"].vertices[0].co'})
    assert len(co) == 3
    color = call("data.get", {"path": 'materials["Material"].node_tree.nodes["Principled BSDF"].inputs["Base Color"].default_value'})
    assert len(color) == 4
    node = call("data.get", {"path": 'materials["Material"].node_tree.nodes["Principled BSDF"]'})
    assert node == {"type": "ShaderNodeBsdfPrincipled", "name": "Principled BSDF", "path": 'materials["Material"].node_tree.nodes["Principled BSDF"]'}, node
    call("data.set", {"path": 'scenes["Scene"].view_layers["ViewLayer"].objects.active', "value": {"$path": 'objects["Cube"]'}})
    cube = call("data.get", {"path": "context.active_object"})
    assert cube == {"type": "Object", "name": "Cube", "path": 'objects["Cube"]'}, cube
    scene = call("data.get", {"path": "context.scene"})
    assert scene["path"] == 'scenes["Scene"]', scene
    matrix = call("data.get", {"path": 'objects["Camera"].matrix_world'})
    assert len(matrix) == 4 and len(matrix[0]) == 4
    verts = call("data.get", {"path": 'meshes["Cube"].vertices'})
    assert len(verts) == 8 and verts[0]["path"] == 'meshes["Cube"].vertices[0]', verts[0]


@check("Python-layer properties: children, users_collection")
def _():
    bpy.data.objects["Sphere"].parent = bpy.data.objects["Cube"]
    children = call("data.get", {"path": 'objects["Cube"].children'})
    assert [c["name"] for c in children] == ["Sphere"] and children[0]["path"] == 'objects["Sphere"]', children
    collections = call("data.get", {"path": 'objects["Cube"].users_collection'})
    assert [c["name"] for c in collections] == ["Collection"], collections
    error = fails("READ_ONLY", "data.set", {"path": 'objects["Cube"].children', "value": []})
    assert "Python layer" in error.message, error.message
    described = call("data.describe", {"type": "Object"})
    assert any(p["name"] == "children" and p["type"] == "python" for p in described["properties"]), described
    error = fails("NOT_FOUND", "data.get", {"path": 'objects["Cube"].childern'})
    assert "children" in error.message, error.message
    bpy.data.objects["Sphere"].parent = None


@check("data.get errors")
def _():
    error = fails("NOT_FOUND", "data.get", {"path": 'objects["Cub"].location'})
    assert "Cube" in error.message, error.message
    error = fails("NOT_FOUND", "data.get", {"path": 'objects["Cube"].locaton'})
    assert "location" in error.message, error.message
    error = fails("INVALID_PATH", "data.get", {"path": 'objects["Cube"'})
    assert "position" in error.message, error.message
    fails("INVALID_PATH", "data.get", {"path": "objects['Cube'].__class__"})
    fails("NOT_FOUND", "data.get", {"path": "context.window_manager"})
    fails("NOT_FOUND", "data.get", {"path": 'objects["Cube"].keys'})
    fails("POLICY", "data.get", {"path": "window_managers[0].clipboard"})


@check("data.set examples")
def _():
    # Each form returns the value as Blender stored it.
    assert call("data.set", {"path": 'objects["Cube"].location', "value": [1, 2, 3]}) == [1.0, 2.0, 3.0]
    assert call("data.get", {"path": 'objects["Cube"].location'}) == [1.0, 2.0, 3.0]
    call("data.set", {"path": 'scenes["Scene"].render.engine', "value": "CYCLES"})
    assert bpy.context.scene.render.engine == "CYCLES"
    camera = call("data.set", {"path": 'scenes["Scene"].camera', "value": {"$path": 'objects["Camera"]'}})
    assert camera["name"] == "Camera", camera
    assert call("data.set", {"path": 'objects["Cube"].location[0]', "value": 5}) == 5.0
    assert bpy.data.objects["Cube"].location[0] == 5
    call("data.set", {"path": 'materials["Material"].node_tree.nodes["Principled BSDF"].inputs["Base Color"].default_value', "value": [1, 0, 0, 1]})
    assert call("data.set", {"path": 'objects["Cube"]["weight"]', "value": 3}) == 3
    assert call("data.get", {"path": 'objects["Cube"]["weight"]'}) == 3
    # Derived values follow a write at once, as they would after an operator.
    call("data.set", {"path": 'objects["Cube"].location', "value": [4, 0, 0]})
    matrix = call("data.get", {"path": 'objects["Cube"].matrix_world'})
    assert [row[3] for row in matrix[:3]] == [4.0, 0.0, 0.0], matrix
    dimensions = call("data.set", {"path": 'objects["Cube"].dimensions', "value": [1, 1, 1]})
    assert all(abs(d - 1) < 1e-5 for d in dimensions), dimensions
    call("data.call", {"path": 'objects["Cube"].modifiers.new', "kwargs": {"name": "Grow", "type": "ARRAY"}})
    evaluated = call("data.get", {"path": 'objects["Cube"].dimensions'})
    assert abs(evaluated[0] - 2) < 1e-5, evaluated  # an array of two cubes side by side
    call("data.call", {"path": 'objects["Cube"].modifiers.remove', "args": [{"$path": 'objects["Cube"].modifiers["Grow"]'}]})
    call("data.set", {"path": 'objects["Cube"].scale', "value": [1, 1, 1]})
    call("data.set", {"path": 'objects["Cube"].location', "value": [1, 2, 3]})


@check("data.set errors")
def _():
    fails("READ_ONLY", "data.set", {"path": 'objects["Cube"].type', "value": "LIGHT"})
    fails("READ_ONLY", "data.set", {"path": 'objects["Cube"].modifiers', "value": []})
    error = fails("INVALID_VALUE", "data.set", {"path": 'scenes["Scene"].render.engine', "value": "NOPE"})
    assert "CYCLES" in error.message, error.message
    fails("INVALID_VALUE", "data.set", {"path": 'objects["Cube"].location', "value": "x"})
    # Wrong shapes and silent refusals are named, not passed on in Blender's words or ignored.
    error = fails("INVALID_VALUE", "data.set", {"path": 'objects["Cube"].location', "value": {"x": 1, "y": 2, "z": 3}})
    assert "takes 3 numbers as a list ([1, 2, 3] for x, y, z), not an object ({x, y, z})" in error.message, error.message
    error = fails("INVALID_VALUE", "data.set", {"path": 'objects["Cube"].location', "value": 5})
    assert "not the single number 5" in error.message, error.message
    bpy.data.objects["Sphere"].parent = bpy.data.objects["Cube"]
    error = fails("INVALID_VALUE", "data.set", {"path": 'objects["Cube"].parent', "value": {"$path": 'objects["Sphere"]'}})
    assert "it would make a parent loop" in error.message and bpy.data.objects["Cube"].parent is None, error.message
    bpy.data.objects["Sphere"].parent = None
    error = fails("INVALID_PATH", "data.get", {})
    assert "it is missing (or null)" in error.message, error.message
    error = fails("INVALID_PATH", "data.call", {"path": 'objects["Cube"].location'})
    assert "is a property, not a function" in error.message, error.message
    error = fails("POLICY", "data.set", {"path": 'scenes["Scene"].render.filepath', "value": "/tmp/out/"})
    assert error.data == {"rule": "data-folder"} and "render.filepath" in error.message, error.message
    call("data.set", {"path": 'scenes["Scene"].render.filepath', "value": "//frames/f_"})
    assert bpy.context.scene.render.filepath == os.path.join(policy.data_dir, "frames", "f_")


@check("data.list examples")
def _():
    meshes = call("data.list", {"collection": "objects", "options": {"type": "MESH"}})
    assert {m["name"] for m in meshes} >= {"Cube", "Sphere"} and all(m["type"] == "MESH" for m in meshes), meshes
    call("data.call", {"path": 'objects["Cube"].modifiers.new', "kwargs": {"name": "Subdivision", "type": "SUBSURF"}})
    mods = call("data.list", {"collection": 'objects["Cube"].modifiers'})
    assert mods == [{"name": "Subdivision", "type": "SUBSURF", "path": 'objects["Cube"].modifiers["Subdivision"]'}], mods
    with_fields = call("data.list", {"collection": "objects", "options": {"fields": ["location", "data"]}})
    cube = next(item for item in with_fields if item["name"] == "Cube")
    assert cube["data"]["name"] == "Cube" and len(cube["location"]) == 3, cube
    nodes = call("data.list", {"collection": 'materials["Material"].node_tree.nodes'})
    assert any(n["name"] == "Principled BSDF" for n in nodes)
    fails("NOT_FOUND", "data.list", {"collection": "objects", "options": {"fields": ["locaton"]}})
    # A type no item can have is named, not answered with an empty list; a real one may match none.
    wrong = fails("INVALID_VALUE", "data.list", {"collection": "objects", "options": {"type": "mesh"}})
    assert "did you mean MESH?" in wrong.message and "CAMERA" in wrong.message, wrong.message
    fails("INVALID_VALUE", "data.list", {"collection": "objects", "options": {"type": "MESHH"}})
    assert call("data.list", {"collection": "objects", "options": {"type": "SPEAKER"}}) == []
    assert call("data.list", {"collection": "objects", "options": {"type": "Object"}}) != []


@check("data.call examples")
def _():
    red = call("data.call", {"path": "materials.new", "args": ["Red"]})
    assert red == {"type": "Material", "name": "Red", "path": 'materials["Red"]'}, red
    call("data.call", {"path": 'objects["Cube"].keyframe_insert', "kwargs": {"data_path": "location", "frame": 1}})
    assert bpy.data.objects["Cube"].animation_data.action is not None
    mesh = call("data.call", {"path": "meshes.new", "args": ["Empty"]})
    obj = call("data.call", {"path": "objects.new", "args": ["FromMesh", {"$path": mesh["path"]}]})
    assert obj["name"] == "FromMesh"
    call("data.call", {"path": 'collections["Collection"].objects.link', "args": [{"$path": 'objects["FromMesh"]'}]})
    call("data.call", {"path": 'objects["Cube"].data.materials.append', "args": [{"$path": 'materials["Red"]'}]})
    tree = 'materials["Material"].node_tree'
    node = call("data.call", {"path": f"{tree}.nodes.new", "args": ["ShaderNodeRGB"]})
    link = call("data.call", {"path": f"{tree}.links.new", "args": [{"$path": node["path"] + '.outputs[0]'}, {"$path": f'{tree}.nodes["Principled BSDF"].inputs["Base Color"]'}]})
    # Every returned struct's path leads back to it, also where Blender cannot spell one.
    assert link["type"] == "NodeLink" and link["path"].startswith(f"{tree}.links["), link
    assert call("data.get", {"path": link["path"] + ".from_node"})["path"] == node["path"]
    action = bpy.data.objects["Cube"].animation_data.action.name
    # Blender 5's actions keep their F-curves in layers of strips of channel bags.
    fcurves = f'actions["{action}"].fcurves'
    if "fcurves" not in bpy.types.Action.bl_rna.properties:
        layer = bpy.data.actions[action].layers[0].name
        fcurves = f'actions["{action}"].layers["{layer}"].strips[0].channelbags[0].fcurves'
    fcurve = call("data.get", {"path": f"{fcurves}[2]"})
    assert fcurve["path"] == f"{fcurves}[2]", fcurve
    key = call("data.get", {"path": f"{fcurves}[1].keyframe_points[0]"})
    assert key["path"] == f"{fcurves}[1].keyframe_points[0]", key
    socket = call("data.get", {"path": f'{tree}.nodes["Principled BSDF"].inputs[0]'})
    assert socket["path"] == f'{tree}.nodes["Principled BSDF"].inputs[0]', socket
    call("data.call", {"path": 'scenes["Scene"].frame_set', "args": [3]})
    assert bpy.context.scene.frame_current == 3
    call("data.call", {"path": 'scenes["Scene"].frame_set', "args": [1]})
    fails("NOT_FOUND", "data.call", {"path": "materials.neww", "args": ["x"]})
    fails("INVALID_VALUE", "data.call", {"path": 'objects["Cube"].modifiers.new', "kwargs": {"name": "x", "type": "NOPE"}})
    fails("POLICY", "data.call", {"path": "images.load", "args": ["/etc/passwd"]})


@check("data.describe examples")
def _():
    obj = call("data.describe", {"type": "Object"})
    names = {p["name"] for p in obj["properties"]}
    assert "location" in names and any(f.startswith("keyframe_insert(") for f in obj["functions"]), obj["functions"][:5]
    location = next(p for p in obj["properties"] if p["name"] == "location")
    assert location["readonly"] is False and location["type"] == "float"
    mod = call("data.describe", {"type": 'objects["Cube"].modifiers["Subdivision"]'})
    assert mod["name"] == "SubsurfModifier", mod["name"]
    coll = call("data.describe", {"type": "materials"})
    assert any(f.startswith("new(") for f in coll["functions"]), coll
    fails("NOT_FOUND", "data.describe", {"type": "Objectt"})


@check("driver expressions")
def _():
    fcurve = bpy.data.objects["Cube"].driver_add("location", 2)
    path = 'objects["Cube"].animation_data.drivers[0].driver.expression'
    call("data.set", {"path": path, "value": "frame / 10"})
    fails("POLICY", "data.set", {"path": path, "value": "exec('import os')"})
    fcurve.driver.expression = "0"


@check("operator policy")
def _():
    for operator in ("script.python_file_run", "text.run_script", "wm.url_open", "preferences.addon_install", "wm.quit_blender", "console.execute", "wm.context_set_value", "wm.save_userpref"):
        error = fails("POLICY", "blender.op", {"operator": operator, "args": {}})
        assert error.data and error.data.get("rule"), error.data
    error = fails("POLICY", "blender.op", {"operator": "wm.save_as_mainfile", "args": {"filepath": "/tmp/x.blend"}})
    assert "filepath" in error.message and "/tmp/x.blend" in error.message and "data-folder" in error.message, error.message
    link = os.path.join(data_dir, "escape")
    os.symlink("/tmp", link)
    fails("POLICY", "blender.op", {"operator": "wm.save_as_mainfile", "args": {"filepath": os.path.join(link, "x.blend")}})
    fails("POLICY", "blender.op", {"operator": "wm.save_as_mainfile", "args": {"filepath": "../x.blend"}})
    fails("NOT_FOUND", "blender.op", {"operator": "mesh.no_such_operator"})
    fails("INVALID_ARGS", "blender.op", {"operator": "mesh.primitive_cube_add", "args": {"sizee": 1}})
    fails("INVALID_ARGS", "blender.op", {"operator": "object.select_all", "args": {"action": "NOPE"}})
    # A wrong enum value names the argument and the closest values, by id and by label.
    error = fails("INVALID_ARGS", "blender.op", {"operator": "object.modifier_add", "args": {"type": "SUBDIVISION"}})
    assert "argument type 'SUBDIVISION'" in error.message and "did you mean SUBSURF (Subdivision Surface)?" in error.message, error.message
    error = fails("INVALID_ARGS", "blender.op", {"operator": "object.select_all", "args": {"action": "deselect"}})
    assert "did you mean DESELECT?" in error.message and "Values: TOGGLE, SELECT, DESELECT, INVERT" in error.message, error.message


@check("save and open inside the data folder")
def _():
    result = call("blender.op", {"operator": "wm.save_as_mainfile", "args": {"filepath": "scene.blend"}})
    assert result["result"] == ["FINISHED"] and os.path.exists(os.path.join(data_dir, "scene.blend")), result
    # The files list names what this command wrote, not an earlier export's files of the same stem.
    glb = call("blender.op", {"operator": "export_scene.gltf", "args": {"filepath": "exports/scene"}})
    assert glb["files"] == ["exports/scene.glb"], glb
    obj = call("blender.op", {"operator": "wm.obj_export", "args": {"filepath": "exports/scene.obj"}})
    assert obj["files"] == ["exports/scene.mtl", "exports/scene.obj"], obj
    again = call("blender.op", {"operator": "wm.save_mainfile"})
    assert again["files"] == ["scene.blend", "scene.blend1"], again  # with Blender's backup
    # Saved in the data folder, a '//' path is checked and then stored relative, as given.
    call("data.set", {"path": 'scenes["Scene"].render.filepath', "value": "//frames/f_"})
    assert bpy.context.scene.render.filepath == "//frames/f_", bpy.context.scene.render.filepath
    error = fails("POLICY", "data.set", {"path": 'scenes["Scene"].render.filepath', "value": "//../../x_"})
    assert error.data == {"rule": "data-folder"}, error.message
    assert bpy.context.scene.render.filepath == "//frames/f_"
    result = call("blender.op", {"operator": "wm.open_mainfile", "args": {"filepath": "scene.blend", "use_scripts": True}})
    assert result["result"] == ["FINISHED"], result
    assert "Sphere" in bpy.data.objects


@check("POLL_FAILED and the 3D-view override")
def _():
    error = fails("POLL_FAILED", "blender.op", {"operator": "mesh.subdivide"})
    assert error.data == {"mode": "OBJECT"} and "mesh.subdivide.poll() failed" in error.message, error.message
    result = call("blender.op", {"operator": "view3d.snap_cursor_to_center"})
    assert result["result"] == ["FINISHED"], result


@check("CANCELLED is a result")
def _():
    result = call("blender.op", {"operator": "object.material_slot_remove_unused"})
    assert result["result"] in (["CANCELLED"], ["FINISHED"]), result


@check("a missing modifier or constraint is NOT_FOUND; Blender's reports come back")
def _():
    bpy.context.view_layer.objects.active = bpy.data.objects["Cube"]
    cube = bpy.data.objects["Cube"]
    for modifier in list(cube.modifiers):
        cube.modifiers.remove(modifier)
    error = fails("NOT_FOUND", "blender.op", {"operator": "object.modifier_apply", "args": {"modifier": "Nope"}})
    assert "no modifier 'Nope' on the active object 'Cube' (it has no modifiers)" in error.message, error.message
    call("blender.op", {"operator": "object.modifier_add", "args": {"type": "SUBSURF"}})
    call("blender.op", {"operator": "object.modifier_add", "args": {"type": "BEVEL"}})
    error = fails("NOT_FOUND", "blender.op", {"operator": "object.modifier_remove", "args": {"modifier": "bevel"}})
    assert "(it has 'Subdivision', 'Bevel'); did you mean 'Bevel'?" in error.message, error.message
    error = fails("NOT_FOUND", "blender.op", {"operator": "constraint.delete", "args": {"constraint": "Track To", "owner": "OBJECT"}})
    assert "no constraint 'Track To'" in error.message, error.message
    applied = call("blender.op", {"operator": "object.modifier_apply", "args": {"modifier": "Bevel"}})
    assert applied["reports"] == ["Info: Applied modifier was not first, result may not be as expected"], applied
    assert applied["removed"] == [{"type": "BevelModifier", "name": "Bevel", "path": 'objects["Cube"].modifiers["Bevel"]'}], applied
    assert "reports" not in call("blender.op", {"operator": "object.modifier_apply", "args": {"modifier": "Subdivision"}})


@check("render two frames")
def _():
    scene = bpy.context.scene
    scene.render.engine = "BLENDER_WORKBENCH"
    scene.render.resolution_x = scene.render.resolution_y = 32
    scene.render.resolution_percentage = 100
    scene.frame_start, scene.frame_end = 1, 2
    call("data.set", {"path": 'scenes["Scene"].render.filepath', "value": "renders/frame_"})
    result = call("blender.op", {"operator": "render.render", "args": {"animation": True}})
    assert result["result"] == ["FINISHED"] and result["frames"] == [1, 2], result
    assert result["files"] == ["renders/frame_0001.png", "renders/frame_0002.png"], result
    for name in result["files"]:
        assert os.path.getsize(os.path.join(data_dir, name)) > 0
    still = call("blender.op", {"operator": "render.render", "args": {"write_still": True}})
    assert still["files"] == ["renders/frame_.png"], still  # a still has no frame digits
    # A '#' in a still's output stays a '#': Blender writes the path as it is.
    call("data.set", {"path": 'scenes["Scene"].render.filepath', "value": "renders/still_####"})
    hashed = call("blender.op", {"operator": "render.render", "args": {"write_still": True}})
    assert hashed["files"] == ["renders/still_####.png"], hashed
    assert os.path.getsize(os.path.join(data_dir, "renders", "still_####.png")) > 0
    call("data.set", {"path": 'scenes["Scene"].render.filepath', "value": "renders/frame_"})


@check("render cancelled between frames")
def _():
    call_object = Call(999, "blender.op", {"operator": "render.render", "args": {"animation": True}})
    call_object.cancel("test")
    reply = dispatcher.run(call_object)
    assert reply["type"] == "error" and reply["error"]["code"] == "CANCELLED", reply
    # Cancelled once frame 2 is set: frames 1 and 2 are written, and the error lists them.
    scene = bpy.context.scene
    scene.frame_start, scene.frame_end = 1, 5
    call_object = Call(1000, "blender.op", {"operator": "render.render", "args": {"animation": True}})

    def cancel_at_two(scene, *_):
        if scene.frame_current == 2:
            call_object.cancel("test")

    bpy.app.handlers.frame_change_post.append(cancel_at_two)
    try:
        reply = dispatcher.run(call_object)
    finally:
        bpy.app.handlers.frame_change_post.remove(cancel_at_two)
    error = reply["error"]
    assert error["code"] == "CANCELLED" and "after 2 of 5 frames" in error["message"], reply
    assert error["data"] == {"frames": [1, 2], "files": ["renders/frame_0001.png", "renders/frame_0002.png"]}, reply


@check("the generated path options are this Blender's, and every one is checked")
def _():
    from _bpy import ops as _ops

    from dcc_blender import path_options
    from dcc_blender.operators import resolve_operator

    table = path_options.table()
    live = {}
    for idname in _ops.dir():
        module, _, name = idname.partition("_OT_")
        operator = f"{module.lower()}.{name}"
        rna = getattr(getattr(bpy.ops, module.lower()), name).get_rna_type()
        found = {p.identifier: path_options.operator_option_kind(operator, p) for p in rna.properties}
        found = {k: v for k, v in found.items() if v}
        if found:
            live[operator] = found
    assert live == table["operators"], sorted(set(live) ^ set(table["operators"]))
    assert table["operators"]["export_scene.gltf"]["export_texture_dir"] == "folder"
    node_tree = bpy.data.node_groups.new("Paths", "CompositorNodeTree")
    node = node_tree.nodes.new("CompositorNodeOutputFile")
    if hasattr(node, "file_slots"):  # up to 4.x
        assert table["types"]["NodeOutputFileSlotFile"]["path"] == "file"
        assert table["types"]["CompositorNodeOutputFile"]["base_path"] == "file"
        slot = node.file_slots[0]
        assert path_options.property_kind(slot.bl_rna, slot.bl_rna.properties["path"]) == "file"
    else:  # 5.x: a folder and a file name
        assert path_options.property_kind(node.bl_rna, node.bl_rna.properties["directory"]) == "folder"
        assert path_options.property_kind(node.bl_rna, node.bl_rna.properties["file_name"]) == "file"
    bpy.data.node_groups.remove(node_tree)
    # Every option that names a path, whatever its name, is refused outside the data folder.
    for operator, options in sorted(table["operators"].items()):
        if policy.operator_rule(operator) is not None:
            continue
        _, rna = resolve_operator(operator)
        for option, kind in options.items():
            from dcc_blender.operators import check_arguments

            value = "x/../../../outside" if kind != "name" else "../outside"
            try:
                check_arguments(policy, operator, rna, {option: value})
            except HandlerError as error:
                assert error.code == "POLICY", (operator, option, error.message)
            else:
                raise AssertionError(f"{operator} {option}={value!r} was not refused")


@check("glTF texture folder: refused outside, listed inside")
def _():
    bpy.ops.wm.read_factory_settings(use_empty=False)
    image = bpy.data.images.new("leak", 4, 4)
    material = bpy.data.objects["Cube"].active_material
    texture = material.node_tree.nodes.new("ShaderNodeTexImage")
    texture.image = image
    material.node_tree.links.new(texture.outputs["Color"], material.node_tree.nodes["Principled BSDF"].inputs["Base Color"])
    outside = tempfile.mkdtemp(prefix="dcc-blender-outside-")
    try:
        for value in (os.path.join(outside, "tex"), "../../tex"):
            error = fails("POLICY", "blender.op", {"operator": "export_scene.gltf", "args": {"filepath": "out/x.gltf", "export_format": "GLTF_SEPARATE", "export_texture_dir": value}})
            assert "export_texture_dir" in error.message, error.message
        assert os.listdir(outside) == [], os.listdir(outside)
        result = call("blender.op", {"operator": "export_scene.gltf", "args": {"filepath": "out/x.gltf", "export_format": "GLTF_SEPARATE", "export_texture_dir": "tex"}})
        assert result["files"] == ["out/tex/leak.png", "out/x.bin", "out/x.gltf"], result
    finally:
        shutil.rmtree(outside, ignore_errors=True)


@check("stored paths are re-checked when a file operation uses them")
def _():
    bpy.ops.wm.read_factory_settings(use_empty=False)
    outside = tempfile.mkdtemp(prefix="dcc-blender-outside-")
    try:
        # As a .blend made elsewhere would hold it: set without the policy.
        image = bpy.data.images.new("dirty", 4, 4)
        image.filepath_raw = os.path.join(data_dir, "dirty.png")
        image.file_format = "PNG"
        image.save()
        image.pixels = [0.5] * 64
        image.filepath_raw = os.path.join(outside, "dirty.png")
        error = fails("POLICY", "blender.op", {"operator": "image.save_all_modified", "args": {}})
        assert 'images["dirty"].filepath' in error.message, error.message
        error = fails("POLICY", "data.call", {"path": 'images["dirty"].save'})
        assert "dirty.png" in error.message, error.message
        fails("POLICY", "blender.op", {"operator": "render.render", "args": {"write_still": True}})
        assert os.listdir(outside) == [], os.listdir(outside)
        image.filepath_raw = os.path.join(data_dir, "dirty.png")
        result = call("blender.op", {"operator": "image.save_all_modified", "args": {}})
        assert result["files"] == ["dirty.png"], result
    finally:
        bpy.ops.wm.read_factory_settings(use_empty=False)
        shutil.rmtree(outside, ignore_errors=True)


@check("an export refuses names with control characters a file brought in")
def _():
    bpy.ops.wm.read_factory_settings(use_empty=False)
    try:
        bpy.data.materials["Material"].name = "M\nmap_Kd\t/etc/hostname"
        error = fails("POLICY", "blender.op", {"operator": "wm.obj_export", "args": {"filepath": "names/x.obj"}})
        assert "control characters" in error.message and 'materials["M\\nmap_Kd' in error.message, error.message
        assert not os.path.exists(os.path.join(data_dir, "names")), os.listdir(data_dir)
        bpy.data.materials[0].name = "Material"
        bpy.data.objects["Cube"].vertex_groups.new(name="g\tx")
        error = fails("POLICY", "blender.op", {"operator": "export_scene.fbx", "args": {"filepath": "names/x.fbx"}})
        assert "vertex_groups" in error.message, error.message
    finally:
        bpy.ops.wm.read_factory_settings(use_empty=False)


@check("a .blend whose stored paths lead outside is closed again when opened")
def _():
    bpy.ops.wm.read_factory_settings(use_empty=False)
    outside = tempfile.mkdtemp(prefix="dcc-blender-outside-")
    try:
        # A file made elsewhere, dropped into the data folder.
        far = bpy.data.images.new("far", 4, 4)
        far.filepath_raw = os.path.join(outside, "far.png")
        far.use_fake_user = True
        bpy.ops.wm.save_as_mainfile(filepath=os.path.join(data_dir, "dropped.blend"))
        bpy.ops.wm.read_factory_settings(use_empty=False)
        bpy.data.objects["Cube"].name = "Before"
        error = fails("POLICY", "blender.op", {"operator": "wm.open_mainfile", "args": {"filepath": "dropped.blend"}})
        assert 'images["far"].filepath' in error.message and "scene before brought back" in error.message, error.message
        assert "far" not in bpy.data.images and "Before" in bpy.data.objects
        assert not any(name.startswith(".dcc-before-load-") for name in os.listdir(policy.data_dir))
        # A saved file without unsaved changes is opened again from its own path.
        bpy.ops.wm.save_as_mainfile(filepath=os.path.join(data_dir, "kept.blend"))
        error = fails("POLICY", "blender.op", {"operator": "wm.open_mainfile", "args": {"filepath": "dropped.blend"}})
        # (Some versions mark a file just saved as changed: it comes back as a copy then.)
        assert "opened again" in error.message or "brought back" in error.message, error.message
        assert "far" not in bpy.data.images and "Before" in bpy.data.objects
        error = fails("POLICY", "blender.op", {"operator": "wm.append", "args": {"directory": "dropped.blend/Image/", "filename": "far"}})
        assert "removed again" in error.message, error.message
        assert "far" not in bpy.data.images
    finally:
        bpy.ops.wm.read_factory_settings(use_empty=False)
        shutil.rmtree(outside, ignore_errors=True)


def _capture_file():
    """An empty capture file as the Node side makes one (here in the data folder)."""
    descriptor, path = tempfile.mkstemp(prefix="dcc-capture-", suffix=".png", dir=data_dir)
    os.close(descriptor)
    return path


@check("a capture writes only its own file, and re-checks stored paths first")
def _():
    bpy.ops.wm.read_factory_settings(use_empty=False)
    outside = tempfile.mkdtemp(prefix="dcc-blender-outside-")
    try:
        scene = bpy.context.scene
        capout = os.path.join(data_dir, "capout") + os.sep
        if hasattr(scene, "compositing_node_group"):
            # Blender 5: the compositor's tree is a node group, its File Output node's files items.
            tree = bpy.data.node_groups.new("Compositor", "CompositorNodeTree")
            scene.compositing_node_group = tree
            layers = tree.nodes.new("CompositorNodeRLayers")
            node = tree.nodes.new("CompositorNodeOutputFile")
            node.directory = capout
            node.file_output_items.new("RGBA", "Image")
            tree.links.new(layers.outputs["Image"], node.inputs["Image"])
        else:
            scene.use_nodes = True
            tree = scene.node_tree
            node = tree.nodes.new("CompositorNodeOutputFile")
            node.base_path = capout
            tree.links.new(tree.nodes["Render Layers"].outputs["Image"], node.inputs[0])
        scene.render.engine = "BLENDER_WORKBENCH"
        scene.render.resolution_x = scene.render.resolution_y = 32
        # The node works: a render writes its file.
        call("blender.op", {"operator": "render.render", "args": {}})
        assert os.listdir(os.path.join(data_dir, "capout")), "the File Output node wrote nothing"
        shutil.rmtree(os.path.join(data_dir, "capout"))
        path = _capture_file()
        result = call("viewport.screenshot", {"path": path, "width": 32, "source": "camera"})
        assert not os.path.exists(os.path.join(data_dir, "capout")), os.listdir(os.path.join(data_dir, "capout"))
        assert result["path"] == path and os.path.getsize(path) > 0, result
        assert scene.render.use_compositing, "the capture did not put the compositor back"
        os.unlink(path)
        # Not the Node side's file: refused before anything is drawn.
        link = os.path.join(data_dir, "dcc-capture-link.png")
        os.symlink(os.path.join(outside, "x.png"), link)
        fails("INVALID_ARGS", "viewport.screenshot", {"path": link})
        fails("INVALID_ARGS", "viewport.screenshot", {"path": os.path.join(data_dir, "mine.png")})
        # A stored path outside (as a .blend made elsewhere would hold it) refuses the capture.
        image = bpy.data.images.new("outside", 4, 4)
        image.filepath_raw = os.path.join(outside, "texture.png")
        path = _capture_file()
        error = fails("POLICY", "viewport.screenshot", {"path": path, "width": 32, "source": "camera"})
        assert 'images["outside"].filepath' in error.message, error.message
        assert os.path.getsize(path) == 0
    finally:
        bpy.ops.wm.read_factory_settings(use_empty=False)
        shutil.rmtree(outside, ignore_errors=True)
@check("a check that fails on an opened file refuses it and brings the scene before back")
def _():
    from dcc_blender import stored_paths

    bpy.ops.wm.read_factory_settings(use_empty=False)
    bpy.data.objects.new("Opened", None)
    bpy.ops.wm.save_as_mainfile(filepath=os.path.join(data_dir, "other.blend"))
    bpy.ops.wm.read_factory_settings(use_empty=False)
    bpy.data.objects["Cube"].name = "Before"
    real = stored_paths.refusal

    def broken(*_args, **_kwargs):
        stored_paths.refusal = real  # only the check of the opened file breaks
        raise AttributeError("'Scene' object has no attribute 'node_tree'")

    stored_paths.refusal = broken
    try:
        error = fails("POLICY", "blender.op", {"operator": "wm.open_mainfile", "args": {"filepath": "other.blend"}})
    finally:
        stored_paths.refusal = real
    assert "could not be checked" in error.message and "AttributeError" in error.message, error.message
    assert "Opened" not in bpy.data.objects and "Before" in bpy.data.objects
    assert not any(name.startswith(".dcc-before-load-") for name in os.listdir(policy.data_dir))
    bpy.ops.wm.read_factory_settings(use_empty=False)


@check("a check that fails before an operator refuses it")
def _():
    from dcc_blender import stored_paths

    bpy.ops.wm.read_factory_settings(use_empty=False)
    real = stored_paths.refusal

    def broken(*_args, **_kwargs):
        raise AttributeError("'Scene' object has no attribute 'node_tree'")

    stored_paths.refusal = broken
    try:
        error = fails("POLICY", "blender.op", {"operator": "wm.save_as_mainfile", "args": {"filepath": "never.blend"}})
    finally:
        stored_paths.refusal = real
    assert "checks could not be made" in error.message and "AttributeError" in error.message, error.message
    assert not os.path.exists(os.path.join(policy.data_dir, "never.blend"))


@check("one place for version differences")
def _():
    from dcc_blender import compat

    bpy.ops.wm.read_factory_settings(use_empty=False)
    names = compat.data_collections()
    assert "all_ids" not in names and "objects" in names and "materials" in names, names
    blocks = [block for name in names for block in getattr(bpy.data, name)]
    assert len(blocks) == len({block.as_pointer() for block in blocks}), "a data-block listed twice"
    engine = compat.eevee_engine()
    assert engine in compat.render_engines() and engine.startswith("BLENDER_EEVEE"), engine
    assert call("data.get", {"path": "context.scene.render.engine"}) == engine
    scene = bpy.context.scene
    assert compat.scene_tree_attribute() in ("node_tree", "compositing_node_group")
    assert compat.scene_compositor_tree(scene) is None or isinstance(compat.scene_compositor_tree(scene), bpy.types.NodeTree)
    node = bpy.data.materials["Material"].node_tree.nodes["Principled BSDF"]
    assert compat.item_kind(node) == "BSDF_PRINCIPLED", compat.item_kind(node)
    listed = call("data.list", {"collection": 'materials["Material"].node_tree.nodes', "options": {"type": "BSDF_PRINCIPLED"}})
    assert [entry["name"] for entry in listed] == ["Principled BSDF"], listed
    fails("INVALID_VALUE", "data.list", {"collection": 'materials["Material"].node_tree.nodes', "options": {"type": "BSDF_PRINCIPLD"}})
    # A Principled input renamed in 4.0 is named as this Blender calls it.
    inputs = 'materials["Material"].node_tree.nodes["Principled BSDF"].inputs'
    for old, new in (("Specular", "Specular IOR Level"), ("Emission", "Emission Color")):
        here, other = (old, new) if old in node.inputs else (new, old)
        error = fails("NOT_FOUND", "data.get", {"path": f"{inputs}[{other!r}]"})
        assert f"calls it {here!r}" in error.message, error.message
    words = compat.vocabulary()
    assert words["eevee"] == engine and "Base Color" in words["principledInputs"], words
    # A change report lists a new data-block once, whatever this Blender's bpy.data holds.
    made = call("blender.op", {"operator": "mesh.primitive_cube_add", "args": {"location": [0, 3, 0]}})
    assert [entry["path"] for entry in made["created"]].count('objects["Cube.001"]') == 1, made
    # Saving checks every stored path, the compositor's included.
    saved = call("blender.op", {"operator": "wm.save_as_mainfile", "args": {"filepath": "compat.blend"}})
    assert saved["result"] == ["FINISHED"], saved
    bpy.ops.wm.read_factory_settings(use_empty=False)


@check("load_post confines outputs")
def _():
    bpy.context.scene.render.filepath = "/tmp/elsewhere/"
    bpy.ops.wm.save_as_mainfile(filepath=os.path.join(data_dir, "out.blend"))
    bpy.ops.wm.open_mainfile(filepath=os.path.join(data_dir, "out.blend"))
    assert bpy.context.scene.render.filepath == os.path.join(policy.data_dir, "renders") + os.sep


@check("blender.reset")
def _():
    result = call("blender.reset")
    assert result["objects"] == ["Camera", "Cube", "Light"], result
    assert bpy.context.scene.render.filepath.startswith(policy.data_dir)


@check("a data-block named by path is the one that now has the name (removed, renamed, undone)")
def _():
    call("blender.reset")
    made = call("data.call", {"path": "objects.new", "args": ["Known", None]})
    assert made["path"] == 'objects["Known"]', made
    call("data.set", {"path": 'objects["Known"].location', "value": [1, 2, 3]})
    # Removed and made again under the same name: the new one, not the freed one.
    call("data.call", {"path": "objects.remove", "args": [{"$path": 'objects["Known"]'}]})
    fails("NOT_FOUND", "data.get", {"path": 'objects["Known"].location'})
    call("data.call", {"path": "objects.new", "args": ["Known", None]})
    assert call("data.get", {"path": 'objects["Known"].location'}) == [0, 0, 0]
    # Renamed: the old name no longer finds it, the new one does.
    call("data.set", {"path": 'objects["Known"].name', "value": "Other"})
    fails("NOT_FOUND", "data.get", {"path": 'objects["Known"].location'})
    call("data.set", {"path": 'objects["Other"].location', "value": [4, 5, 6]})
    assert tuple(bpy.data.objects["Other"].location) == (4, 5, 6)
    # Taken back by a rollback: gone, and a new one of that name is found afresh.
    call("blender.txn.begin", {"label": "known"})
    call("data.call", {"path": "objects.new", "args": ["Undone", None]})
    call("data.set", {"path": 'objects["Undone"].location', "value": [7, 8, 9]})
    assert call("blender.txn.end", {"rollback": True})["rolledBack"] is True
    fails("NOT_FOUND", "data.get", {"path": 'objects["Undone"].location'})
    bpy.data.objects.new("Undone", None)  # outside any command
    assert call("data.get", {"path": 'objects["Undone"].location'}) == [0, 0, 0]


shutil.rmtree(data_dir, ignore_errors=True)
if failures:
    print(f"SMOKE FAILED: {', '.join(failures)}", flush=True)
    sys.exit(1)
print("SMOKE OK", flush=True)
