"""Whether headless Blender can get an OpenGL context, asked without letting Blender try.

Under ``blender -b`` on Linux, Blender's drawing (the Workbench render a capture uses) gets its
OpenGL context from EGL: libepoxy loads ``libEGL.so.1`` and Blender asks it for a display, falling
back to Mesa's surfaceless platform. Where ``libEGL.so.1`` is missing (Debian's newer Blender
packages do not pull it in), libepoxy aborts the whole process ("Couldn't open libEGL.so.1");
where libglvnd's ``libEGL.so.1`` finds no driver (no ``libegl-mesa0``), Blender aborts on an
assertion. This module asks the same questions through ``ctypes``, which only fail: the library
is loaded (as Blender would load it anyway) and asked for a display, never initialised.

No ``bpy`` here: the plain-Python tests run it on the host's own libraries.
"""

from __future__ import annotations

import ctypes
import sys
from typing import Optional

LIBRARY = "libEGL.so.1"
INSTALL = ("libegl1", "libegl-mesa0")
_EGL_PLATFORM_SURFACELESS_MESA = 0x31DD


def egl_problem(library: str = LIBRARY) -> Optional[str]:
    """None when ``library`` loads and an EGL driver gives a display, else why not."""
    if not sys.platform.startswith("linux"):
        return None  # macOS and Windows draw through their own APIs, not EGL
    try:
        egl = ctypes.CDLL(library)
    except OSError as error:
        return f"{library} could not be loaded ({error})"
    get_display = getattr(egl, "eglGetDisplay", None)
    if get_display is None:
        return f"{library} has no eglGetDisplay"
    get_display.restype = ctypes.c_void_p
    get_display.argtypes = [ctypes.c_void_p]
    if get_display(None):
        return None
    # No default display (no X server, say): Blender falls back to Mesa's surfaceless platform.
    get_platform_display = getattr(egl, "eglGetPlatformDisplay", None)
    if get_platform_display is not None:
        get_platform_display.restype = ctypes.c_void_p
        get_platform_display.argtypes = [ctypes.c_uint, ctypes.c_void_p, ctypes.c_void_p]
        if get_platform_display(_EGL_PLATFORM_SURFACELESS_MESA, None, None):
            return None
    return f"{library} found no EGL driver to give a display (libglvnd has no vendor library)"


def unavailable_message(command: str, problem: str) -> str:
    """What a capture answers where ``egl_problem`` found one: what is missing and what to install."""
    return (
        f"{command}: this Blender cannot draw without a window: {problem}. "
        f"Install EGL ({' '.join(INSTALL)} on Debian and Ubuntu: apt-get install {' '.join(INSTALL)}) "
        "and start Blender again, or run it with a window (window: \"xvfb\")"
    )
