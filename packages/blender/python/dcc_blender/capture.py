"""``viewport.screenshot``: an image of the 3D view, or of the scene's camera, written into the
file the Node side created for it (``path``), which the Node side reads, checks and removes, and
returns to the script as an image.

The way is picked per mode, by what was measured on a machine with no GPU (see the package
README): under ``blender -b`` there is no OpenGL context, so the Workbench engine (what the solid
viewport draws) renders, from the 3D view's viewpoint through a temporary camera, or from the
scene's camera; with a window (Xvfb, a display, an attached Blender) ``render.opengl`` draws the
viewport itself, as the person sees it.

A capture writes nothing but that file: the compositor and the sequencer are off while it renders
(a File Output node would write files no result reports), and it is refused, as a render is,
while a stored path of the open file resolves outside the data folder (textures it would read).
Headless, EGL is probed once at start-up (``gl_probe``): where Blender could not draw, a capture
answers ``CAPTURE_UNAVAILABLE`` instead of letting Blender abort.
"""

from __future__ import annotations

import os
import stat
from typing import Any, Dict, List, Optional

import bpy
from dcc_link import HandlerError

from . import gl_probe, stored_paths
from .operators import _view3d_override

MIN_SIDE = 16
MAX_SIDE = 1024
_FORMATS = {"png": ("PNG", "image/png", ".png"), "jpeg": ("JPEG", "image/jpeg", ".jpg")}


COMMAND = "viewport.screenshot"

# What the start-up probe found: [] before it ran, then [None] or [the problem].
_gl: List[Optional[str]] = []


def probe_gl() -> None:
    """Asks once, at start-up, whether headless Blender can draw (see ``gl_probe``)."""
    if not _gl:
        _gl.append(gl_probe.egl_problem() if bpy.app.background else None)


def _require_gl() -> None:
    probe_gl()
    if _gl[0] is not None:
        raise HandlerError(
            "CAPTURE_UNAVAILABLE",
            gl_probe.unavailable_message(COMMAND, _gl[0]),
            {"install": list(gl_probe.INSTALL)},
        )


def _host_file(params: Dict[str, Any]) -> str:
    """The empty file the Node side created for this capture: never a link, never anything else."""
    path = params.get("path")
    if not isinstance(path, str) or not os.path.isabs(path) or not os.path.basename(path).startswith("dcc-capture-"):
        raise HandlerError("INVALID_ARGS", f"{COMMAND}: the host gives the capture file; got path {path!r}")
    try:
        found = os.lstat(path)
    except OSError as error:
        raise HandlerError("INVALID_ARGS", f"{COMMAND}: the capture file {path!r} cannot be used: {error.strerror}") from None
    if not stat.S_ISREG(found.st_mode) or found.st_size != 0:
        raise HandlerError("INVALID_ARGS", f"{COMMAND}: the capture file {path!r} is not an empty regular file")
    return path


def _side(params: Dict[str, Any], name: str, default: int) -> int:
    value = params.get(name, default)
    if isinstance(value, bool) or not isinstance(value, int) or not MIN_SIDE <= value <= MAX_SIDE:
        raise HandlerError(
            "INVALID_ARGS",
            f"viewport.screenshot: {name} must be an integer from {MIN_SIDE} to {MAX_SIDE}, not {value!r}",
        )
    return value


class _Settings:
    """Sets render settings for one capture and puts the scene's own back afterwards."""

    def __init__(self, scene, changes):
        self.scene = scene
        self.changes = changes
        self.saved = []

    def __enter__(self):
        for owner_path, name, value in self.changes:
            owner = self.scene
            for part in owner_path:
                owner = getattr(owner, part)
            self.saved.append((owner, name, getattr(owner, name)))
            setattr(owner, name, value)
        return self

    def __exit__(self, *_exc):
        for owner, name, value in reversed(self.saved):
            setattr(owner, name, value)
        return False


def _view_camera(override, scene):
    """A temporary camera at the 3D view's viewpoint (for Workbench under ``-b``)."""
    space = override["area"].spaces.active
    view = space.region_3d
    data = bpy.data.cameras.new("dcc_capture_view")
    data.lens = space.lens
    # The viewport measures its lens against a 72 mm sensor, a camera against 36 mm by default.
    data.sensor_width = 72
    data.clip_start = space.clip_start
    data.clip_end = space.clip_end
    if view.view_perspective == "ORTHO":
        data.type = "ORTHO"
        data.ortho_scale = view.view_distance * 2
    camera = bpy.data.objects.new("dcc_capture_view", data)
    camera.matrix_world = view.view_matrix.inverted()
    scene.collection.objects.link(camera)
    return camera


def capture_viewport(params, call, policy) -> Dict[str, Any]:
    source = params.get("source", "view")
    if source not in ("view", "camera"):
        raise HandlerError("INVALID_ARGS", f"viewport.screenshot: source must be 'view' or 'camera', not {source!r}")
    image_format = params.get("format", "png")
    if image_format not in _FORMATS:
        raise HandlerError("INVALID_ARGS", f"viewport.screenshot: format must be 'png' or 'jpeg', not {image_format!r}")
    scene = bpy.context.scene
    width = _side(params, "width", 512)
    aspect = scene.render.resolution_y / max(1, scene.render.resolution_x)
    height = _side(params, "height", max(MIN_SIDE, min(MAX_SIDE, round(width * aspect))))
    override = _view3d_override()
    if source == "camera" and scene.camera is None:
        raise HandlerError("NOT_FOUND", "viewport.screenshot: the scene has no camera; capture source 'view' instead")
    if source == "view" and override is None:
        raise HandlerError("NOT_FOUND", "viewport.screenshot: there is no 3D view; capture source 'camera' instead")
    file_format, mime_type, _extension = _FORMATS[image_format]
    path = _host_file(params)
    _require_gl()
    # Rendering reads what the open file stores (textures, say): as for a render, every stored
    # path must lie inside the data folder.
    refused = stored_paths.refusal(policy, COMMAND, stored_paths.blend_dir())
    if refused is not None:
        raise refused
    settings = [
        # Only the image itself: no compositor (a File Output node writes files of its own), no
        # sequencer strips.
        (("render",), "use_compositing", False),
        (("render",), "use_sequencer", False),
        (("render",), "resolution_x", width),
        (("render",), "resolution_y", height),
        (("render",), "resolution_percentage", 100),
        (("render",), "use_border", False),
        (("render", "image_settings"), "file_format", file_format),
        (("render", "image_settings"), "color_mode", "RGB"),
    ]
    temporary = None
    try:
        if bpy.app.background:
            method = "workbench"
            settings.append((("render",), "engine", "BLENDER_WORKBENCH"))
            if source == "view":
                temporary = _view_camera(override, scene)
                settings.append(((), "camera", temporary))
            with _Settings(scene, settings):
                bpy.ops.render.render(write_still=False)
                bpy.data.images["Render Result"].save_render(path, scene=scene)
        else:
            method = "opengl"
            with _Settings(scene, settings), bpy.context.temp_override(**override):
                bpy.ops.render.opengl(write_still=False, view_context=source == "view")
                bpy.data.images["Render Result"].save_render(path, scene=scene)
    except RuntimeError as error:
        # The file is the host's: it removes it.
        raise HandlerError("OPERATOR_FAILED", f"viewport.screenshot: {str(error).strip()}") from None
    finally:
        if temporary is not None:
            data = temporary.data
            bpy.data.objects.remove(temporary)
            bpy.data.cameras.remove(data)
    return {
        "path": path,
        "mimeType": mime_type,
        "width": width,
        "height": height,
        "source": source,
        "method": method,
    }
