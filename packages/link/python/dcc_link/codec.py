"""Frame codec of the link: a 4-byte big-endian length, then that many bytes of UTF-8 JSON.

Every frame is one JSON object with a string ``type``. Both sides refuse frames above a size
limit, invalid UTF-8, JSON that the other side could not read back (NaN, Infinity), and nesting
deeper than ``MAX_PARAMS_DEPTH`` levels inside the frame's own object. Nothing a peer sends can
make decoding raise anything but ``FrameError``: not ``RecursionError``, not ``MemoryError``.
"""

from __future__ import annotations

import json
import re
import struct
from typing import Optional

HEADER = struct.Struct(">I")
DEFAULT_MAX_FRAME_BYTES = 16 * 1024 * 1024

# The params of a call (level 1) nest at most this deep; the frame's object adds one level. The
# Node side refuses deeper params before sending. Far below the interpreter's recursion limit,
# which json.loads would otherwise reach (and raise RecursionError) on a hostile frame.
MAX_PARAMS_DEPTH = 64
MAX_FRAME_DEPTH = MAX_PARAMS_DEPTH + 1

# A JSON string, escapes included (DOTALL: a backslash may precede any byte of a bad frame). An
# unterminated one runs to the end, so a match never fails: a failed match would be retried at
# every later quote, which is quadratic in a frame of escaped quotes.
_STRING = re.compile(rb'"[^"\\]*(?:\\(?:.|\Z)[^"\\]*)*(?:"|\Z)', re.DOTALL)
# Keeps only brackets, with objects and arrays written alike.
_BRACKETS_ONLY = bytes.maketrans(b"{}", b"[]")
_NOT_BRACKETS = bytes(byte for byte in range(256) if byte not in b"[]{}")

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


def nesting_problem(body: bytes, max_depth: int = MAX_FRAME_DEPTH) -> Optional[str]:
    """Why ``body`` cannot be handed to ``json.loads``: it nests deeper than ``max_depth`` levels,
    or its brackets do not pair up; ``None`` when neither.

    Runs in C-speed passes, never recursion: strings are blanked, everything but brackets is
    dropped, then each pass removes the innermost empty pairs, so ``max_depth`` passes empty the
    brackets of a value that is not deeper than that.
    """
    if len(body) <= 2 * max_depth:
        return None  # too short to hold max_depth + 1 pairs of brackets
    brackets = _STRING.sub(b"", body).translate(_BRACKETS_ONLY, _NOT_BRACKETS)
    for _ in range(max_depth):
        if not brackets:
            return None
        inner = brackets.replace(b"[]", b"")
        if len(inner) == len(brackets):
            return "its brackets do not pair up"
        brackets = inner
    if not brackets:
        return None
    return (
        f"it nests deeper than {max_depth} levels"
        f" (call params may nest at most {MAX_PARAMS_DEPTH} levels)"
    )


def decode_body(body: bytes) -> dict:
    """Decodes one frame body; raises ``FrameError`` (``BAD_FRAME``) for anything but an object
    with a string ``type`` nested at most ``MAX_FRAME_DEPTH`` levels, and never anything else."""
    # Any failure here (a RecursionError, a MemoryError) is the frame's fault, and must not end
    # the thread that reads the socket: in a DCC that is the link, or the DCC itself.
    try:
        try:
            text = body.decode("utf-8")
        except UnicodeDecodeError:
            raise FrameError(BAD_FRAME, "frame is not valid UTF-8") from None
        problem = nesting_problem(body)
        if problem is not None:
            raise FrameError(BAD_FRAME, f"frame is refused: {problem}")
        value = json.loads(text, parse_constant=_reject_constant)
    except FrameError:
        raise
    except ValueError as error:
        raise FrameError(BAD_FRAME, f"frame is not valid JSON: {error}") from None
    except Exception as error:  # noqa: BLE001 - see above
        raise FrameError(BAD_FRAME, f"frame cannot be decoded: {type(error).__name__}") from None
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
