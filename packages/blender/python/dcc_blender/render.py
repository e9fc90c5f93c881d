"""Rendering under the policy: output inside the data folder, animations frame by frame with a
cancellation checkpoint between frames."""

from __future__ import annotations

import os
from typing import Any, Dict

import bpy
from bpy.app.handlers import persistent
from dcc_link import HandlerError, checkpoint

from . import policy as policy_module

RENDERS = "renders"


def confine_outputs(policy) -> None:
    """Points every scene's render output that resolves outside the data folder (the factory
    default is /tmp/) at ``<data>/renders/``."""
    target = os.path.join(policy.data_dir, RENDERS) + os.sep
    for scene in bpy.data.scenes:
        path = scene.render.filepath
        absolute = bpy.path.abspath(path) if path.startswith("//") and bpy.data.filepath else policy.resolve(path)
        if not path or not policy.inside(absolute):
            scene.render.filepath = target


def install_load_handler(policy) -> None:
    """Re-applies ``confine_outputs`` after every file load (persistent across loads)."""

    @persistent
    def dcc_blender_confine_outputs(_arg=None, *_rest):
        confine_outputs(policy)

    handlers = bpy.app.handlers.load_post
    for existing in list(handlers):
        if getattr(existing, "__name__", "") == "dcc_blender_confine_outputs":
            handlers.remove(existing)
    handlers.append(dcc_blender_confine_outputs)


def _scene(args: Dict[str, Any]):
    name = args.get("scene") or ""
    if name:
        scene = bpy.data.scenes.get(name)
        if scene is None:
            raise HandlerError("NOT_FOUND", f"no scene named {name!r}")
        return scene
    return bpy.context.scene


def _checked_output(policy, scene, frame: int) -> str:
    return _checked_path(policy, scene, scene.render.frame_path(frame=frame))


def _checked_path(policy, scene, path: str) -> str:
    if not policy.inside(path) and not policy.lifted(policy_module.DATA_FOLDER_RULE):
        rule = policy_module.DATA_FOLDER_RULE
        raise HandlerError(
            "POLICY",
            f"the render output {scene.render.filepath!r} (resolves to {path!r}) is refused "
            f"(rule {rule!r}: files must be inside the data folder {policy.data_dir!r})",
            {"rule": rule},
        )
    return path


def _still_path(scene) -> str:
    # Blender 3.4 writes a still at the output path as written: a '#' stays a '#' (only an
    # animation's frames replace it), and the extension is added when the path lacks it.
    path = bpy.path.abspath(scene.render.filepath)
    extension = scene.render.file_extension
    if scene.render.use_file_extension and not path.lower().endswith(extension.lower()):
        path += extension
    return path


def _run(function, args):
    try:
        return function(**args)
    except TypeError as error:
        raise HandlerError("INVALID_ARGS", f"render.render: {str(error).strip()}") from None
    except RuntimeError as error:
        raise HandlerError("OPERATOR_FAILED", f"render.render: {str(error).strip()}") from None


def render_operator(function, args: Dict[str, Any], call, policy) -> Dict[str, Any]:
    """``render.render``: ``animation`` renders frame_start..frame_end by frame_step, one
    still per frame, checking for cancellation between frames."""
    scene = _scene(args)
    if not args.get("animation"):
        if args.get("write_still"):
            original = scene.render.filepath
            # An output that is a folder alone ("renders/", the default) would give the still
            # no name at all (".png"): it is named by its frame, as an animation's frames are
            # (a still's path takes no '#' substitution).
            if os.path.basename(bpy.path.abspath(original)) == "":
                scene.render.filepath = original + f"{scene.frame_current:04d}"
            try:
                path = _checked_path(policy, scene, _still_path(scene))
                result = _run(function, args)
            finally:
                scene.render.filepath = original
            files = [policy.relative(path)] if os.path.exists(path) else []
            return {"result": sorted(result), "frames": [scene.frame_current], "files": files}
        result = _run(function, args)
        return {"result": sorted(result), "frames": [scene.frame_current], "files": []}
    frames = list(range(scene.frame_start, scene.frame_end + 1, max(1, scene.frame_step)))
    for frame in frames:
        _checked_output(policy, scene, frame)
    if scene.render.is_movie_format:
        # A movie is one file: Blender writes it in one go (cancellation only before it starts).
        checkpoint()
        path = _checked_output(policy, scene, scene.frame_start)
        result = _run(function, args)
        files = [policy.relative(path)] if os.path.exists(path) else []
        return {"result": sorted(result), "frames": frames, "files": files}
    still = dict(args)
    still["animation"] = False
    still["write_still"] = True
    original = scene.frame_current
    original_path = scene.render.filepath
    done, files = [], []
    try:
        for frame in frames:
            try:
                checkpoint()
            except HandlerError as cancelled:
                # The frames already written stay: the error says which they are.
                cancelled.message += f" after {len(done)} of {len(frames)} frames"
                cancelled.data = {"frames": done, "files": files}
                raise
            scene.frame_set(frame)
            path = _checked_output(policy, scene, frame)
            # A still is written without frame digits: name each frame as an animation would.
            scene.render.filepath = path
            try:
                result = _run(function, still)
            finally:
                scene.render.filepath = original_path
            if "FINISHED" not in result:
                return {"result": sorted(result), "frames": done, "files": files}
            done.append(frame)
            if os.path.exists(path):
                files.append(policy.relative(path))
    finally:
        scene.frame_set(original)
    return {"result": ["FINISHED"], "frames": done, "files": files}


def remove_load_handler() -> None:
    """Removes the handler ``install_load_handler`` added (add-on unregister)."""
    handlers = bpy.app.handlers.load_post
    for existing in list(handlers):
        if getattr(existing, "__name__", "") == "dcc_blender_confine_outputs":
            handlers.remove(existing)
