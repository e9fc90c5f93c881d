"""Recovery copies of the scene, so that a Blender that had to be ended loses nothing committed.

After a script that changed the scene is committed, the adapter calls ``blender.recovery.save``
(at most once per its interval): a copy of the whole file goes to ``recovery.blend`` in the
folder named by ``DCC_BLENDER_RECOVERY_DIR`` (private to the adapter; the launch sets it and
shows it to the OS sandbox). When the adapter has restarted Blender (a command past its
deadline, a crash, a kill), ``blender.recovery.open`` opens that copy. Neither takes a path: no
caller can make them write or read anywhere else. The copy is written beside the old one and
then renamed over it, so a Blender ended mid-save leaves the previous copy whole."""

from __future__ import annotations

import os
import time
from typing import Any, Dict

import bpy
from dcc_link import HandlerError

FOLDER_VARIABLE = "DCC_BLENDER_RECOVERY_DIR"
COPY_NAME = "recovery.blend"
PARTIAL_NAME = "recovery.saving.blend"


def _folder() -> str:
    folder = os.environ.get(FOLDER_VARIABLE, "")
    if not folder or not os.path.isabs(folder) or not os.path.isdir(folder):
        raise HandlerError(
            "NOT_AVAILABLE",
            f"this Blender keeps no recovery copies ({FOLDER_VARIABLE} names no folder)",
        )
    return folder


def _scene_counts() -> Dict[str, int]:
    return {"objects": len(bpy.data.objects), "scenes": len(bpy.data.scenes)}


def save(params, call, policy) -> Dict[str, Any]:
    """Saves a copy of the scene as it is (the open file, if any, stays the current one)."""
    folder = _folder()
    partial = os.path.join(folder, PARTIAL_NAME)
    if os.path.exists(partial):
        os.remove(partial)  # a save ended midway; and no ".blend1" backup of it either
    started = time.perf_counter()
    # copy=True: the current file and its unsaved state stay as they are; paths relative to the
    # open file are remapped so that they still point at the same files from the copy.
    result = bpy.ops.wm.save_as_mainfile(filepath=partial, copy=True, check_existing=False)
    if "FINISHED" not in result:
        raise HandlerError("FAILED", f"wm.save_as_mainfile answered {sorted(result)}")
    os.replace(partial, os.path.join(folder, COPY_NAME))
    return {"saved": True, "seconds": time.perf_counter() - started, **_scene_counts()}


def open_copy(params, call, policy) -> Dict[str, Any]:
    """Opens the last copy; ``{"opened": False}`` when there is none."""
    path = os.path.join(_folder(), COPY_NAME)
    if not os.path.isfile(path):
        return {"opened": False}
    # Scripts in the file never run (Blender runs with --disable-autoexec, and use_scripts=False).
    result = bpy.ops.wm.open_mainfile(filepath=path, load_ui=False, use_scripts=False)
    if "FINISHED" not in result:
        raise HandlerError("FAILED", f"wm.open_mainfile answered {sorted(result)}")
    return {"opened": True, **_scene_counts()}


def bench_plain_save(params, call, policy) -> Dict[str, Any]:
    """For the benchmark: the same save as ``save`` but plain, to a fixed file in the data folder."""
    started = time.perf_counter()
    path = os.path.join(policy.data_dir, "bench-plain-save.blend")
    result = bpy.ops.wm.save_as_mainfile(filepath=path, copy=True, check_existing=False)
    if "FINISHED" not in result:
        raise HandlerError("FAILED", f"wm.save_as_mainfile answered {sorted(result)}")
    return {"saved": True, "seconds": time.perf_counter() - started}


def bench_populate(params, call, policy) -> Dict[str, Any]:
    """For the benchmark: replaces the scene's objects with ``count`` cubes, each its own mesh."""
    count = int(params.get("count", 0))
    if not 0 <= count <= 100_000:
        raise HandlerError("INVALID_ARGS", "count must be between 0 and 100000")
    for obj in list(bpy.data.objects):
        bpy.data.objects.remove(obj, do_unlink=True)
    collection = bpy.context.scene.collection
    template = bpy.data.meshes.new("bench-cube")
    template.from_pydata(
        [(x, y, z) for x in (-1, 1) for y in (-1, 1) for z in (-1, 1)],
        [],
        [(0, 1, 3, 2), (4, 6, 7, 5), (0, 4, 5, 1), (2, 3, 7, 6), (0, 2, 6, 4), (1, 5, 7, 3)],
    )
    for index in range(count):
        obj = bpy.data.objects.new(f"Cube.{index:05d}", template.copy())
        obj.location = (index % 100 * 3, index // 100 * 3, 0)
        collection.objects.link(obj)
    bpy.data.meshes.remove(template)
    return {"objects": len(bpy.data.objects)}
