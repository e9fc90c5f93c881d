"""``bench.undo``: what a script's undo bookkeeping costs inside Blender, for ``pnpm bench``.

Timed on the scene as it is plus ``objects`` more (made directly in ``bpy``, so that building a
large scene stays fast), with Blender's undo stack full (32 steps): reading the stack (twice per
script: at begin and at end), the per-command hooks around a ``data.set``, the ``data.set``
itself beside them, the names taken once per script for its change report, and Blender's own undo
push (what any transaction pays once per script) for scale. Medians in microseconds.
"""

from __future__ import annotations

import time
from statistics import median

import bpy

from . import data_api, scene_changes, transaction, undo_stack


def _timed(function, rounds: int) -> float:
    times = []
    for _ in range(rounds):
        started = time.perf_counter_ns()
        function()
        times.append((time.perf_counter_ns() - started) / 1000)
    return median(times)


def bench_undo(params, call, policy):
    rounds = max(1, min(int(params.get("rounds", 200)), 10_000))
    extra = max(0, min(int(params.get("objects", 0)), 200_000))
    if extra:
        mesh = bpy.data.meshes.new("BenchMesh")
        for index in range(extra):
            bpy.data.objects.new(f"Bench{index}", mesh)
    for index in range(32):
        undo_stack.push(f"bench {index}")
    steps = len(undo_stack.read() or [])
    stack_read = _timed(undo_stack.read, rounds)
    names = _timed(scene_changes.names, max(1, rounds // 20))
    push = _timed(lambda: undo_stack.push("bench push"), max(1, rounds // 20))
    target = next(iter(bpy.data.objects))
    args = {"path": f"objects[{target.name!r}].location".replace("'", '"'), "value": [0.0, 0.0, 1.0]}
    transaction.begin({"label": "bench"}, call, policy)
    try:
        transaction.before_command("data.set", args)  # the script's first change: names taken once

        def hooks():
            transaction.before_command("data.set", args)
            transaction.after_command("data.set", args, None, None)

        hook = _timed(hooks, rounds)
        assign = _timed(lambda: data_api.data_set(args, call, policy), rounds)
    finally:
        transaction.end({"rollback": True}, call, policy)
    return {
        "objects": len(bpy.data.objects),
        "steps": steps,
        "stackReadUs": stack_read,
        "hooksUs": hook,
        "dataSetUs": assign,
        "namesUs": names,
        "undoPushUs": push,
    }
