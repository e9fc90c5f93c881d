"""Frame codec of the link: a 4-byte big-endian length, then that many bytes of UTF-8 JSON.

Every frame is one JSON object with a string ``type``. Both sides refuse frames above a size
limit, invalid UTF-8, and JSON that the other side could not read back (NaN, Infinity).
"""

from __future__ import annotations

import json
import struct

HEADER = struct.Struct(">I")
DEFAULT_MAX_FRAME_BYTES = 16 * 1024 * 1024

FRAME_TOO_LARGE = "FRAME_TOO_LARGE"
BAD_FRAME = "BAD_FRAME"


class FrameError(Exception):
    """A frame that breaks the wire format; ``code`` is ``FRAME_TOO_LARGE`` or ``BAD_FRAME``."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def _reject_constant(name: str) -> None:
    # json.loads accepts NaN and Infinity by default; JSON (and Node's JSON.parse) does not.
    raise ValueError(f"{name} is not valid JSON")


def encode_frame(message: dict, max_frame_bytes: int = DEFAULT_MAX_FRAME_BYTES) -> bytes:
    """Encodes one message as a frame.

    Raises ``TypeError`` or ``ValueError`` when the message is not representable as JSON, and
    ``FrameError`` (``FRAME_TOO_LARGE``) when its body exceeds ``max_frame_bytes``.
    """
    text = json.dumps(message, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    body = text.encode("utf-8")  # a lone surrogate raises UnicodeEncodeError, a ValueError
    if len(body) > max_frame_bytes:
        raise FrameError(
            FRAME_TOO_LARGE,
            f"frame of {len(body)} bytes exceeds the limit of {max_frame_bytes} bytes",
        )
    return HEADER.pack(len(body)) + body


def decode_body(body: bytes) -> dict:
    """Decodes one frame body; raises ``FrameError`` (``BAD_FRAME``) for anything but an object
    with a string ``type``."""
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError:
        raise FrameError(BAD_FRAME, "frame is not valid UTF-8") from None
    try:
        value = json.loads(text, parse_constant=_reject_constant)
    except ValueError as error:
        raise FrameError(BAD_FRAME, f"frame is not valid JSON: {error}") from None
    if not isinstance(value, dict) or not isinstance(value.get("type"), str):
        raise FrameError(BAD_FRAME, "frame is not a JSON object with a string 'type'")
    return value


class FrameDecoder:
    """Splits a byte stream into decoded frames. ``max_frame_bytes`` may be changed between
    calls (the server raises it once a peer has authenticated)."""

    def __init__(self, max_frame_bytes: int = DEFAULT_MAX_FRAME_BYTES) -> None:
        self.max_frame_bytes = max_frame_bytes
        self._buffer = bytearray()

    def feed(self, data: bytes) -> list:
        """Adds bytes and returns every frame now complete, in order.

        Raises ``FrameError`` as soon as a header announces an oversized frame (before its body
        arrives) or a body does not decode; the stream cannot be resynchronised after that.
        """
        buffer = self._buffer
        buffer += data
        frames = []
        offset = 0
        while len(buffer) - offset >= HEADER.size:
            (length,) = HEADER.unpack_from(buffer, offset)
            if length > self.max_frame_bytes:
                raise FrameError(
                    FRAME_TOO_LARGE,
                    f"frame of {length} bytes exceeds the limit of {self.max_frame_bytes} bytes",
                )
            end = offset + HEADER.size + length
            if len(buffer) < end:
                break
            frames.append(decode_body(bytes(buffer[offset + HEADER.size : end])))
            offset = end
        if offset:
            del buffer[:offset]
        return frames

    @property
    def buffered(self) -> int:
        """Bytes received but not yet part of a complete frame."""
        return len(self._buffer)
