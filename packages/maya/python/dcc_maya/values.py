"""Maya's return values made plain JSON: tuples and lists become arrays, ``MVector``-like
values (anything with x, y, z, or iterable with a length) arrays of numbers, and non-finite
floats ``None``; anything else its ``str``."""

from __future__ import annotations

import math
from typing import Any


def to_plain(value: Any, depth: int = 0) -> Any:
    if depth > 32:
        return str(value)
    if value is None or isinstance(value, (bool, str)):
        return value
    if isinstance(value, int):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {str(key): to_plain(item, depth + 1) for key, item in value.items()}
    if isinstance(value, (list, tuple, set, frozenset, range)):
        return [to_plain(item, depth + 1) for item in value]
    if all(hasattr(value, axis) for axis in ("x", "y", "z")):
        axes = ["x", "y", "z"] + (["w"] if hasattr(value, "w") else [])
        return [to_plain(getattr(value, axis), depth + 1) for axis in axes]
    if hasattr(value, "__len__") and hasattr(value, "__getitem__"):
        try:
            return [to_plain(value[index], depth + 1) for index in range(len(value))]
        except Exception:  # noqa: BLE001 - fall back to the text below
            pass
    return str(value)
