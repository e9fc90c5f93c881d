"""The data folder a DCC host may read and write: paths resolved against it, anything outside
refused (stdlib only; no DCC needed).

A relative path starts in the data folder; an absolute one must already be inside it. ``..``
steps are resolved first, and symbolic links are followed, so neither ``../x`` nor a link that
points out of the folder gets past the check. Each refusal names the argument, the path as
given (and where it resolves), and the rule (``data-folder``), so a caller can act on it.
"""

from __future__ import annotations

import os
from typing import Optional

DATA_FOLDER_RULE = "data-folder"


class DataFolderRefusal(Exception):
    """A path the data folder refuses; ``rule`` is ``data-folder``, ``argument`` and ``value``
    name what was refused. A handler turns it into ``HandlerError("POLICY", message,
    {"rule": rule})`` (``refusal_error`` does)."""

    def __init__(self, argument: str, value: str, message: str) -> None:
        super().__init__(message)
        self.rule = DATA_FOLDER_RULE
        self.argument = argument
        self.value = value
        self.message = message


class DataFolder:
    """The data folder ``root`` (absolute; symbolic links resolved once, at construction)."""

    def __init__(self, root: str) -> None:
        if not isinstance(root, str) or not os.path.isabs(root):
            raise ValueError(f"the data folder must be an absolute path, not {root!r}")
        self.root = os.path.realpath(root)

    def resolve(self, value: str, base: Optional[str] = None) -> str:
        """The absolute, normalized path ``value`` names: a relative path is taken from ``base``
        (the data folder unless given). ``~`` is not expanded; symbolic links are not followed."""
        base = self.root if base is None else base
        if not os.path.isabs(value):
            value = os.path.join(base, value)
        return os.path.normpath(value)

    def inside(self, absolute: str) -> bool:
        """True when ``absolute`` resolves (symbolic links followed) to the data folder or into it."""
        real = os.path.realpath(absolute)
        return real == self.root or real.startswith(self.root + os.sep)

    def check(self, argument: str, value: str, base: Optional[str] = None) -> str:
        """The absolute path to use for ``value``, or ``DataFolderRefusal`` when it lies outside
        the data folder (after ``..`` and symbolic links). ``argument`` names the argument in the
        message. A value that is not a non-empty string is refused too."""
        if not isinstance(value, str) or value == "" or "\0" in value:
            raise DataFolderRefusal(
                argument,
                repr(value),
                f"{argument} {value!r} is refused (rule {DATA_FOLDER_RULE!r}): a path must be a "
                "non-empty string without NUL characters",
            )
        absolute = self.resolve(value, base)
        if not self.inside(absolute):
            raise self.outside(argument, value, absolute)
        return absolute

    def check_name(self, argument: str, value: str, base: Optional[str] = None) -> str:
        """A bare file name (no folder, not ``.`` or ``..``) whose file would lie inside the data
        folder; returns the name. Raises ``DataFolderRefusal``."""
        if not isinstance(value, str) or value in ("", ".", "..") or "/" in value or "\\" in value:
            raise DataFolderRefusal(
                argument,
                repr(value),
                f"{argument} {value!r} is refused (rule {DATA_FOLDER_RULE!r}): a file name must "
                "not name a folder",
            )
        joined = os.path.join(self.root if base is None else base, value)
        if not self.inside(joined):
            raise self.outside(argument, value, joined)
        return value

    def outside(self, argument: str, value: str, absolute: str) -> DataFolderRefusal:
        """The refusal of ``value`` (which resolves to ``absolute``), naming where it resolves."""
        real = os.path.realpath(absolute)
        shown = repr(value) if real == value else f"{value!r} (resolves to {real!r})"
        return DataFolderRefusal(
            argument,
            value,
            f"{argument} {shown} is refused (rule {DATA_FOLDER_RULE!r}): files must be inside "
            f"the data folder {self.root!r}",
        )

    def relative(self, absolute: str) -> str:
        """``absolute`` relative to the data folder (for results)."""
        return os.path.relpath(os.path.realpath(absolute), self.root)
