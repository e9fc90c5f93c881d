"""What a Maya ASCII (``.ma``) scene would run, read from its text before Maya loads it. A
``.ma`` file is MEL that Maya sources, so anything beyond the commands Maya writes into one, with
literal arguments, is refused; so are the code it can carry in attributes: render-time MEL, an
expression's text, a script node that runs after loading (an ``after`` script, or a type in
``scriptTypesRunningLater``), and connections into render-time MEL. Scenes it references are
read the same way (``reference(path, file_type)`` checks each path and returns its lines).

Which files are MEL: ``mel_lines`` reads a file unless its type (the ``file`` command's
``type``) names another translator, or, with no type, it is a Maya Binary (IFF) file or has the
extension of another format Maya reads with its own translator."""

from __future__ import annotations

import os
import re
from typing import Any, Callable, Dict, Iterable, Iterator, List, Optional

# A quoted string (to the end of the line when unterminated), a comment, a statement end, or a
# run of other characters.
_TOKEN = re.compile(r'"(?:[^"\\\n]|\\.)*"?|//[^\n]*|;|[^";/\s]+|/')
_PLUG = re.compile(r'^[^\s"]*\.([A-Za-z_]\w*)(?:\[[^\]]*\])?(?:\.[A-Za-z_]\w*(?:\[[^\]]*\])?)*$')
# Procedure calls, command substitution, variables and blocks are code, not a literal argument.
_CALL = re.compile(r'[A-Za-z_]\w*\s*\(|[`${}=]')


_KEEP = 256  # tokens kept of a statement (a mesh's setAttr has millions of numbers)


def _statements(lines: Iterable[str]) -> Iterator[Any]:
    """Each statement: its first tokens, and whether its bare (unquoted) text holds code."""
    tokens: List[str] = []
    code = False
    previous = ""
    for line in lines:
        for match in _TOKEN.finditer(line):
            token = match.group(0)
            if token.startswith("//"):
                continue
            if token == ";":
                if tokens:
                    yield tokens, code
                tokens, code, previous = [], False, ""
                continue
            if len(tokens) < _KEEP:
                tokens.append(token)
            if not token.startswith('"') and len(tokens) > 1:
                # `abs (x)` splits the call over two tokens.
                if _CALL.search(token) or (token.startswith("(") and re.search(r"[A-Za-z_]\w*$", previous)):
                    code = True
            previous = "" if token.startswith('"') else token
    if tokens:
        yield tokens, code


def _text(token: str) -> str:
    return token[1:-1] if len(token) >= 2 and token.endswith('"') else token[1:]


def _attribute_names(plug: str) -> List[str]:
    path = plug.split(".", 1)[1] if "." in plug else plug
    return [re.sub(r"\[[^\]]*\]", "", part) for part in path.split(".") if part]


class MaScan:
    """The rule data's view of a .ma file: ``scan(lines)`` returns what it found (empty: none)."""

    def __init__(self, rule_data: Dict[str, Any], reference: Optional[Callable[[str, Optional[str]], Iterable[str]]] = None):
        scene = rule_data["sceneCode"]
        self.commands = frozenset(scene["maCommands"])
        self.late_types = frozenset(scene["scriptTypesRunningLater"])
        names = set()
        self.scene_values: Dict[str, Any] = {}
        for group in rule_data["codeAttributes"]:
            if group["anyNode"]:
                group_names = [n for pair in group["attributes"].items() for n in pair if n]
                names.update(group_names)
                if "sceneValue" in group:
                    self.scene_values.update((name, re.compile(group["sceneValue"])) for name in group_names)
        self.code = frozenset(names)
        self.reference = reference

    def scan(self, lines: Iterable[str]) -> List[str]:
        found: List[str] = []
        node_type: Optional[str] = None
        for statement, code in _statements(lines):
            head = statement[0]
            if head not in self.commands:
                found.append(f"the MEL command {head[:40]!r}")
                continue
            if code:
                found.append(f"code in the arguments of {head}")
                continue
            if head == "createNode":
                node_type = next((t for t in statement[1:] if not t.startswith(("-", '"'))), None)
                if node_type == "expression":
                    found.append("an expression node")
            elif head == "select":
                node_type = None  # a shared node, of a type the text does not say
            elif head == "setAttr":
                found.extend(self._set_attr(statement, node_type))
            elif head == "connectAttr":
                for token in statement[1:]:
                    if token.startswith('"') and self.code.intersection(_attribute_names(_text(token))):
                        found.append(f"a connection into {_text(token)}")
            elif head == "file" and self.reference is not None:
                found.extend(self._referenced(statement))
        return list(dict.fromkeys(found))

    def _set_attr(self, statement: List[str], node_type: Optional[str]) -> List[str]:
        plug_at = next((i for i, t in enumerate(statement) if t.startswith('"') and _PLUG.match(_text(t))), None)
        if plug_at is None:
            return []
        names = _attribute_names(_text(statement[plug_at]))
        rest = statement[plug_at + 1:]
        # The values: quoted strings after the plug, without the type name that -type takes.
        values = [_text(t) for i, t in enumerate(rest) if t.startswith('"')
                  and not (i > 0 and rest[i - 1] in ("-type", "-typ"))]
        code = self.code.intersection(names)
        allowed = [self.scene_values[name] for name in code if name in self.scene_values]
        if code and any(value and not any(p.match(value) for p in allowed) for value in values):
            return [f"code in {names[-1]}"]
        if node_type == "script" and {"a", "after"}.intersection(names) and any(values):
            return ["a script node with an after script"]
        if node_type == "script" and {"st", "scriptType"}.intersection(names):
            numbers = [int(t) for t in rest if t.isdigit()]
            if numbers and numbers[0] in self.late_types:
                return [f"a script node of type {numbers[0]}"]
        return []

    def _referenced(self, statement: List[str]) -> List[str]:
        quoted = [_text(t) for t in statement[1:] if t.startswith('"')]
        if not ({"-r", "-reference", "-rdi", "-referenceDepthInfo"} & set(statement)) or not quoted:
            return []
        kind = next((_text(statement[i + 1]) for i, t in enumerate(statement[:-1]) if t in ("-typ", "-type")), None)
        lines = self.reference(quoted[-1], kind)
        return [f"{found} (in the referenced {quoted[-1]!r})" for found in self.scan(lines)] if lines else []


# Formats Maya reads through their own translators, by extension, when no type is given.
_OTHER_FORMATS = (".mb", ".fbx", ".obj", ".abc", ".usd", ".usda", ".usdc", ".usdz", ".ass", ".dae", ".stl",
                  ".ai", ".eps", ".iges", ".igs", ".step", ".stp", ".bvh", ".json")


def is_mel_scene(path: str, file_type: Optional[str]) -> bool:
    """Whether Maya would source this scene file as MEL (Maya ASCII)."""
    if file_type:
        return file_type.lower() in ("mayaascii", "ma")
    try:
        with open(path, "rb") as handle:
            head = handle.read(4)
    except OSError:
        return False
    if head in (b"FOR4", b"FOR8"):
        return False  # Maya Binary
    return not path.lower().endswith(_OTHER_FORMATS)


def mel_lines(path: str, file_type: Optional[str]) -> Iterator[str]:
    """The lines of a scene Maya would source as MEL, read as they are scanned; none otherwise."""
    if not os.path.isfile(path) or not is_mel_scene(path, file_type):
        return
    with open(path, encoding="utf-8", errors="replace") as handle:
        yield from handle
