"""An image as a command's answer: a spec with ``"image": true`` answers ``image_result(...)``,
and the adapter hands the script a ``HostImage`` (the script sees a small reference; the bytes
go to the MCP result as ``image`` content). The bytes travel base64-encoded in the answer, so an
image must fit the link's frame limit (16 MiB by default: about 12 MiB of image).

``encode_png`` makes a PNG from raw RGB pixels with the standard library, for a DCC that has
pixels but no image writer.
"""

from __future__ import annotations

import base64
import struct
import zlib
from typing import Any, Dict, Optional

from .errors import HandlerError

_PNG = b"\x89PNG\r\n\x1a\n"


def image_result(data: bytes, width: Optional[int] = None, height: Optional[int] = None) -> Dict[str, Any]:
    """The answer of an image command: PNG or JPEG ``data`` (a PNG's size is read from its
    header; a JPEG's must be given). Raises ``HandlerError("INVALID_IMAGE", ...)`` for other
    bytes or a size that is not a positive integer."""
    if not isinstance(data, (bytes, bytearray, memoryview)):
        raise HandlerError("INVALID_IMAGE", f"an image must be bytes, not {type(data).__name__}")
    data = bytes(data)
    if data.startswith(_PNG) and len(data) >= 24 and data[12:16] == b"IHDR":
        mime_type = "image/png"
        found_width, found_height = struct.unpack(">II", data[16:24])
        width = found_width if width is None else width
        height = found_height if height is None else height
    elif data.startswith(b"\xff\xd8"):
        mime_type = "image/jpeg"
    else:
        raise HandlerError("INVALID_IMAGE", "an image must be PNG or JPEG bytes")
    for name, size in (("width", width), ("height", height)):
        if not isinstance(size, int) or isinstance(size, bool) or size < 1:
            raise HandlerError("INVALID_IMAGE", f"the image's {name} must be a positive integer, got {size!r}")
    encoded = base64.b64encode(data).decode("ascii")
    return {"mimeType": mime_type, "width": width, "height": height, "data": encoded}


def encode_png(width: int, height: int, rgb: bytes) -> bytes:
    """A PNG of ``width`` x ``height`` pixels from ``rgb``: 3 bytes per pixel, rows top to bottom."""
    if len(rgb) != width * height * 3:
        raise ValueError(f"{width}x{height} RGB pixels take {width * height * 3} bytes, got {len(rgb)}")
    row = width * 3
    raw = b"".join(b"\x00" + rgb[y * row:(y + 1) * row] for y in range(height))

    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return _PNG + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b"")
