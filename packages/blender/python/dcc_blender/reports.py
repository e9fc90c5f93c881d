"""Blender's reports of an operator call: the "Info: …" and "Warning: …" lines it prints to the
process's standard output (only errors reach Python, as a RuntimeError)."""

from __future__ import annotations

import contextlib
import ctypes
import os
import re
import sys
import tempfile
from typing import Iterator, List

# Blender writes "<Type>: <message>" per report; other output of the call (an exporter's log
# lines) is passed through but is not a report.
_REPORT = re.compile(r"^(Info|Warning|Error): (.+)$")
_libc = None
_buffer = None


def _flush() -> None:
    global _libc
    sys.stdout.flush()
    if _libc is None:
        _libc = ctypes.CDLL(None)
    _libc.fflush(None)  # Blender's C stdio buffer, where its reports are waiting


@contextlib.contextmanager
def capture_reports(into: List[str]) -> Iterator[None]:
    """Collects the reports printed while the block runs into ``into``. Everything printed meanwhile
    still reaches the real standard output afterwards, so the process's log loses nothing."""
    global _buffer
    try:
        _flush()
        if _buffer is None:
            _buffer = tempfile.TemporaryFile()
        saved = os.dup(1)
    except OSError:
        yield  # no capture without a standard output to swap; the call runs as it would
        return
    _buffer.seek(0)
    _buffer.truncate()
    os.dup2(_buffer.fileno(), 1)
    try:
        yield
    finally:
        _flush()
        os.dup2(saved, 1)
        os.close(saved)
        _buffer.seek(0)
        text = _buffer.read()
        if text:
            view = memoryview(text)
            while view:
                view = view[os.write(1, view):]
            for line in text.decode("utf-8", "replace").splitlines():
                match = _REPORT.match(line.strip())
                if match:
                    into.append(line.strip())
