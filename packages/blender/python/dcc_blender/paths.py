r"""Data paths such as ``objects["Cube"].location`` parsed without ``eval`` (no bpy needed).

Grammar::

    path    := root step*
    root    := NAME                      (a bpy.data member, or "context")
    step    := "." NAME | "[" key "]"
    key     := STRING | INTEGER          (single or double quotes; \\ \" \' \n \t \r \uXXXX)

Names never start with an underscore. A path starting with ``context`` is read from
``bpy.context``; any other from ``bpy.data``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import List, Tuple, Union

Key = Union[str, int]


class PathSyntaxError(ValueError):
    """A path that does not parse; ``position`` is the 0-based offset of the problem."""

    def __init__(self, text: str, position: int, expected: str) -> None:
        found = repr(text[position]) if position < len(text) else "the end of the path"
        message = f"invalid path {text!r}: at position {position}, expected {expected}, found {found}"
        super().__init__(message)
        self.text = text
        self.position = position
        self.expected = expected
        self.message = message


@dataclass(frozen=True)
class Step:
    """One step of a path: ``kind`` is ``"attr"`` (``.name``), ``"key"`` (``["name"]``) or
    ``"index"`` (``[0]``)."""

    kind: str
    value: Key

    def text(self) -> str:
        """The step as it is written in a path (after a previous step)."""
        if self.kind == "attr":
            return f".{self.value}"
        if self.kind == "index":
            return f"[{self.value}]"
        return f"[{quote(str(self.value))}]"


@dataclass(frozen=True)
class DataPath:
    """A parsed path: ``root`` is ``"data"`` or ``"context"``; ``steps`` starts with the root's
    member (``objects``, ``active_object``)."""

    root: str
    steps: Tuple[Step, ...]

    def text(self) -> str:
        """The canonical text of the path (double quotes)."""
        return format_path(self.root, self.steps)

    def parent(self) -> "DataPath":
        """The path without its last step."""
        return DataPath(self.root, self.steps[:-1])


_ESCAPES = {"\\": "\\", '"': '"', "'": "'", "n": "\n", "t": "\t", "r": "\r", "0": "\0"}
_QUOTE = {"\\": "\\\\", '"': '\\"', "\n": "\\n", "\t": "\\t", "\r": "\\r", "\0": "\\0"}


def quote(value: str) -> str:
    """``value`` as a double-quoted path string."""
    return '"' + "".join(_QUOTE.get(char, char) for char in value) + '"'


def format_path(root: str, steps) -> str:
    """The text of a path from its root and steps (``context.`` is written for the context)."""
    steps = list(steps)
    if not steps:
        return "context" if root == "context" else ""
    first, rest = steps[0], steps[1:]
    if first.kind != "attr":
        raise ValueError("a path starts with a name")
    head = f"context.{first.value}" if root == "context" else str(first.value)
    return head + "".join(step.text() for step in rest)


def _is_name_start(char: str) -> bool:
    return char.isascii() and (char.isalpha() or char == "_")


def _is_name_char(char: str) -> bool:
    return char.isascii() and (char.isalnum() or char == "_")


class _Parser:
    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0

    def fail(self, expected: str, position=None):
        raise PathSyntaxError(self.text, self.pos if position is None else position, expected)

    def peek(self) -> str:
        return self.text[self.pos] if self.pos < len(self.text) else ""

    def skip_spaces(self) -> None:
        while self.peek() in (" ", "\t"):
            self.pos += 1

    def name(self, what: str) -> str:
        start = self.pos
        if not _is_name_start(self.peek()):
            self.fail(what)
        if self.peek() == "_":
            self.fail(f"{what} (names starting with '_' are not accessible)")
        while _is_name_char(self.peek()):
            self.pos += 1
        return self.text[start : self.pos]

    def string(self) -> str:
        quote_char = self.peek()
        self.pos += 1
        out: List[str] = []
        while True:
            char = self.peek()
            if char == "":
                self.fail(f"a closing {quote_char}")
            self.pos += 1
            if char == quote_char:
                return "".join(out)
            if char != "\\":
                out.append(char)
                continue
            escape = self.peek()
            if escape in _ESCAPES:
                out.append(_ESCAPES[escape])
                self.pos += 1
            elif escape in ("u", "x"):
                width = 4 if escape == "u" else 2
                digits = self.text[self.pos + 1 : self.pos + 1 + width]
                if len(digits) != width or any(c not in "0123456789abcdefABCDEF" for c in digits):
                    self.fail(f"{width} hexadecimal digits after \\{escape}", self.pos + 1)
                out.append(chr(int(digits, 16)))
                self.pos += 1 + width
            else:
                self.fail("an escape: \\\\, \\\", \\', \\n, \\t, \\r, \\0, \\xHH or \\uXXXX")

    def integer(self) -> int:
        start = self.pos
        if self.peek() == "-":
            self.pos += 1
        if not self.peek().isdigit():
            self.fail("a digit")
        while self.peek().isdigit():
            self.pos += 1
        return int(self.text[start : self.pos])

    def parse(self) -> DataPath:
        text = self.text
        if not isinstance(text, str):
            raise PathSyntaxError(str(text), 0, "a string")
        self.skip_spaces()
        first = self.name("a name (a bpy.data collection such as objects, or context)")
        root = "data"
        steps: List[Step] = []
        if first == "context":
            root = "context"
            if self.peek() != ".":
                self.fail("'.' and a context member after context")
        else:
            steps.append(Step("attr", first))
        while True:
            self.skip_spaces()
            char = self.peek()
            if char == "":
                break
            if char == ".":
                self.pos += 1
                steps.append(Step("attr", self.name("a property or function name after '.'")))
            elif char == "[":
                self.pos += 1
                self.skip_spaces()
                if self.peek() in ("'", '"'):
                    steps.append(Step("key", self.string()))
                elif self.peek() == "-" or self.peek().isdigit():
                    steps.append(Step("index", self.integer()))
                else:
                    self.fail("a quoted name or an integer index after '['")
                self.skip_spaces()
                if self.peek() != "]":
                    self.fail("']'")
                self.pos += 1
            else:
                self.fail("'.', '[' or the end of the path")
        return DataPath(root, tuple(steps))


def parse_path(text: str) -> DataPath:
    """Parses a data path; raises ``PathSyntaxError`` naming the position and what was expected."""
    if not isinstance(text, str):
        raise PathSyntaxError(repr(text), 0, "a path string")
    return _Parser(text).parse()
