"""Scenes of a given size and plain ``bpy`` timings on them, for the scene-size benchmark.

``bench.scene`` with ``{"objects": n}`` starts from the factory scene and adds objects (one shared
mesh, so only the object count grows) named ``o000000``, ``o000001``, … directly in ``bpy``, fast
where a script's commands would not be. ``bench.plain`` with ``{"op": name, "count": k}`` runs
one operation ``k`` times in plain ``bpy`` on that scene and returns the median milliseconds of
one and of all ``k``, the baseline for the same operation dispatched from a script. ``bench.trim``
removes what was added since the scene was built; ``bench.settle`` evaluates the scene between
timed scripts; ``bench.op_times`` times Blender's own part of each operator a script runs;
``bench.profile`` profiles the calls in between its start and stop.
All are link methods: only the authenticated caller (the benchmark) reaches them, never a script.
"""

from __future__ import annotations

import statistics
import time

import bpy

PREFIX = "o"


def object_name(index: int) -> str:
    return "%s%06d" % (PREFIX, index)


def bench_scene(params, call, policy):
    count = int(params.get("objects", 0))
    started = time.perf_counter()
    bpy.ops.wm.read_factory_settings(use_empty=False)
    mesh = bpy.data.meshes.new("bench-mesh")
    link = bpy.context.scene.collection.objects.link
    new = bpy.data.objects.new
    for index in range(count):
        link(new(object_name(index), mesh))
    bpy.context.view_layer.update()
    _built[:] = [_names()]
    return {"objects": len(bpy.data.objects), "seconds": time.perf_counter() - started}


# The data-blocks of the scene ``bench.scene`` built, by collection.
_built: list = []
_TRIMMED = ("objects", "meshes", "materials")


def _names():
    return {name: frozenset(getattr(bpy.data, name).keys()) for name in _TRIMMED}


def bench_trim(params, call, policy):
    """Removes what was added since ``bench.scene`` built the scene (the objects, meshes and
    materials of timed operators), so each timed part starts on the same scene."""
    if not _built:
        return {"removed": 0}
    kept = _built[0]
    extra = [
        block
        for name in _TRIMMED
        for block in getattr(bpy.data, name)
        if block.name not in kept[name]
    ]
    bpy.data.batch_remove(extra)
    bpy.context.view_layer.update()
    return {"removed": len(extra)}


def _set_location(index: int) -> None:
    bpy.data.objects[object_name(index % 10)].location = (index, 0.0, 0.0)


def _get_location(index: int) -> None:
    tuple(bpy.data.objects[object_name(index % 10)].location)


_made = [0]


def _new_and_link(index: int) -> None:
    # Names a script's objects never take ("bench-new-<n>"), sorting beside them: Blender keeps
    # each list sorted by name, and both what it costs to insert a name and to make a taken name
    # unique depend on the name.
    _made[0] += 1
    obj = bpy.data.objects.new("bench-new-p%d" % _made[0], None)
    bpy.data.collections["Collection"].objects.link(obj)


def _cube_add(index: int) -> None:
    bpy.ops.mesh.primitive_cube_add(location=(index, 0.0, 0.0))


OPERATIONS = {
    "set_location": _set_location,
    "get_location": _get_location,
    "new_and_link": _new_and_link,
    "cube_add": _cube_add,
}


def bench_plain(params, call, policy):
    operation = OPERATIONS[params["op"]]
    times = []
    for index in range(int(params.get("count", 1))):
        started = time.perf_counter()
        operation(index)
        times.append((time.perf_counter() - started) * 1000.0)
    return {"ms": statistics.median(times), "total": sum(times)}


def bench_settle(params, call, policy):
    """Evaluates what earlier writes left unevaluated (the scripts' and plain ``bpy``'s), so that
    a timed script that follows does not pay for it."""
    bpy.context.view_layer.update()
    return {}


# While set: the function ``operators.run_operator`` was, and the milliseconds of each call.
_op_timing: list = []


def bench_op_times(params, call, policy):
    """``{"action": "start"}`` times Blender's own part of every operator that follows (the
    ``bpy.ops`` call, with its poll, inside ``blender.op``) until ``{"action": "stop"}``, which
    returns them (``ms``): beside the time of the same calls made from a script, what the
    toolkit adds to each, without the variation of an operator's time from one call to the next."""
    from . import operators

    if params.get("action") == "start":
        if not _op_timing:
            original = operators.run_operator
            times: list = []

            def timed(*args, **kwargs):
                started = time.perf_counter()
                try:
                    return original(*args, **kwargs)
                finally:
                    times.append((time.perf_counter() - started) * 1000.0)

            _op_timing[:] = [original, times]
            operators.run_operator = timed
        return {}
    if not _op_timing:
        return {"ms": []}
    original, times = _op_timing
    operators.run_operator = original
    _op_timing.clear()
    return {"ms": times}


_profiler = []


def bench_profile(params, call, policy):
    """``{"action": "start"}`` profiles every call until ``{"action": "stop"}``, which returns the
    functions that took the most time (cProfile), to see where a command's time goes."""
    import cProfile
    import io
    import pstats

    if params.get("action") == "start":
        _profiler[:] = [cProfile.Profile()]
        _profiler[0].enable()
        return {}
    if not _profiler:
        return {"stats": ""}
    profiler = _profiler.pop()
    profiler.disable()
    out = io.StringIO()
    pstats.Stats(profiler, stream=out).sort_stats(params.get("sort", "tottime")).print_stats(int(params.get("top", 25)))
    return {"stats": out.getvalue()}
