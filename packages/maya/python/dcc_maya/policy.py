"""What the Maya side refuses, from ``policy.generated.json``: the one owner of the rule data,
which the TypeScript adapter reads too (there it is the first wall, here the second).
``Policy.check`` needs no Maya; ``check_in_scene`` and the scene-load checks ask Maya about node
types, attribute names and ``usedAsFilename``. Configured by ``DCC_MAYA_DATA_DIR`` (the data
folder, absolute) and ``DCC_MAYA_POLICY`` (optional JSON ``{"allow": ["rule", ...]}`` lifting
whole rules).
"""

from __future__ import annotations

import json
import os
from typing import Any, Dict, Iterable, List, Mapping, Optional

# PolicyRefusal and PolicyConfigError are dcc_link's, imported from here by the other modules too.
from dcc_link import (  # noqa: F401
    DataFolderRefusal,
    PolicyConfigError,
    PolicyRefusal,
    policy_data_folder,
    read_policy_env,
)

from .policy_attributes import plug_attribute_names, plug_node, strings, tables
from .scene_code import ask, scene_code
from .scene_scan import MaScan, mel_lines

ENV_DATA_DIR = "DCC_MAYA_DATA_DIR"
ENV_POLICY = "DCC_MAYA_POLICY"
DATA_PATH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "policy.generated.json")

with open(DATA_PATH, encoding="utf-8") as _handle:
    RULE_DATA: Dict[str, Any] = json.load(_handle)

RULES: Dict[str, str] = RULE_DATA["rules"]
CATALOG = frozenset(RULE_DATA["catalog"])
PLUG_COMMANDS: Dict[str, Dict[str, Any]] = RULE_DATA["plugCommands"]
SCRIPT_TYPES_RUNNING_LATER = frozenset(RULE_DATA["sceneCode"]["scriptTypesRunningLater"])
_ATTRIBUTES = tables(RULE_DATA)
CODE_NAMES: frozenset = _ATTRIBUTES["code"]
FILENAME_NAMES: frozenset = _ATTRIBUTES["files"]
CODE_BY_TYPE: Dict[str, frozenset] = _ATTRIBUTES["codeByType"]
FILENAME_BY_TYPE: Dict[str, frozenset] = _ATTRIBUTES["filesByType"]
RENDER_CODE: List[str] = _ATTRIBUTES["render"]



def _refuse(rule: str, what: str, detail: str = "") -> PolicyRefusal:
    extra = f"; {detail}" if detail else ""
    return PolicyRefusal(rule, f"{what} is refused by the policy (rule {rule!r}: {RULES[rule]}{extra})")


class Policy:
    """The data folder (absolute, resolved) and the lifted rules."""

    def __init__(self, data_dir: str, allow: Iterable[str] = ()) -> None:
        self.folder = policy_data_folder(data_dir)
        self.data_dir = self.folder.root
        self.allow = tuple(allow)
        for entry in self.allow:
            if entry not in RULES:
                known = ", ".join(sorted(RULES))
                raise PolicyConfigError(f"unknown rule {entry!r} in allow (rules: {known})")

    @classmethod
    def from_env(cls, environ: Optional[Mapping[str, str]] = None) -> "Policy":
        """Reads ``DCC_MAYA_DATA_DIR`` and ``DCC_MAYA_POLICY``."""
        env = os.environ if environ is None else environ
        data_dir, allow = read_policy_env(env, ENV_DATA_DIR, ENV_POLICY)
        return cls(data_dir, allow)

    def lifted(self, rule: str) -> bool:
        return rule in self.allow

    def check(self, command: str, args: List[Any], flags: Dict[str, Any]) -> Dict[str, Any]:
        """Raises ``PolicyRefusal`` naming the rule, or returns the flags to pass: long names,
        paths made absolute inside the data folder, ``executeScriptNodes`` forced off."""
        # Named refusals first, so a known command outside the catalog (savePrefs) says why.
        rule = RULE_DATA["commands"].get(command)
        if rule is not None and not self.lifted(rule):
            raise _refuse(rule, f"the command {command}")
        if command not in CATALOG and not self.lifted("not-in-catalog"):
            raise _refuse("not-in-catalog", f"the command {command}")
        names = RULE_DATA["names"].get(command)
        refused = RULE_DATA["flags"].get(command, {})
        query = bool(flags.get("query") or flags.get("q"))
        out: Dict[str, Any] = {}
        for key, value in flags.items():
            long = key
            if names is not None:
                long = names.get(key)
                if long is None:
                    if self.lifted("long-flag-names"):
                        out[key] = value
                        continue
                    raise _refuse("long-flag-names", f"the flag {key!r} of {command}", "use its long name")
            flag_rule = refused.get(long)
            # A query of code or of a setting names the flag to read (`q=True, command=True`);
            # an action flag (`savePluginPrefs`) acts in query mode too.
            read = query and value is True and long in RULE_DATA["queryFlags"].get(command, ())
            if flag_rule is not None and not read and not self.lifted(flag_rule):
                raise _refuse(flag_rule, f"the flag {long!r} of {command}")
            out[long] = value
        self._check_code_nodes(command, args, out)
        self._check_script_nodes(command, out)
        if not query:
            self._check_plug_names(command, args, out)
        out = self._check_paths(command, args, out, query)
        self._scan_scene_file(command, args, out)
        return out

    # ---- attributes ------------------------------------------------------------------------

    def _plug_targets(self, command: str, args: List[Any], flags: Dict[str, Any]) -> List[Any]:
        spec = PLUG_COMMANDS[command]
        # A plug has a dot; a bare argument is a node (addAttr, copyAttr) or an alias's name.
        targets = [(index, value) for index, value in enumerate(args) if isinstance(value, str) and "." in value
                   and (spec["target"] == "all" or index in spec["target"])]
        for name in spec["nameFlags"]:
            targets.extend((None, value) for value in strings(flags.get(name)))
        return targets

    def _check_plug_names(self, command: str, args: List[Any], flags: Dict[str, Any]) -> None:
        """By name only, as the TypeScript wall: code attributes refused, file-name attributes
        confined (``setAttr``) or refused (connections, aliases, copies)."""
        if command not in PLUG_COMMANDS:
            return
        for _, target in self._plug_targets(command, args, flags):
            names = plug_attribute_names(target)
            self._refuse_code(command, target, names, CODE_NAMES, args)
            if any(name in FILENAME_NAMES for name in names):
                self._file_name_value(command, target, args)

    def _refuse_code(self, command: str, target: str, names: List[str], code: frozenset,
                     args: List[Any]) -> None:
        # Emptying a hook (`setAttr defaultRenderGlobals.preMel ""`) runs nothing later.
        clears = PLUG_COMMANDS[command].get("sets") and len(args) > 1 and all(v == "" for v in args[1:])
        if any(name in code for name in names) and not clears and not self.lifted("code-attribute"):
            raise _refuse("code-attribute", f"{command} on {target!r}")

    def _file_name_value(self, command: str, target: str, args: List[Any]) -> None:
        if self.lifted("data-folder"):
            return
        spec = PLUG_COMMANDS[command]
        if not spec.get("sets"):
            raise _refuse("data-folder", f"{command} into {target!r}",
                          "a file-name attribute takes a checked path from setAttr, not a connection, alias or copy")
        for index in range(1, len(args)):
            if isinstance(args[index], str):
                args[index] = self.check_path(f"setAttr {target}", args[index])
            elif isinstance(args[index], (list, tuple)):
                args[index] = self._paths_in(f"setAttr {target}", args[index])

    def check_in_scene(self, cmds, command: str, args: List[Any], flags: Dict[str, Any]) -> None:
        """With the scene: ``setAttr``/``connectAttr`` on script and expression nodes; code
        attributes by node type and by the long name Maya resolves (short names, aliases); file
        names by node type and by Maya's own ``usedAsFilename`` mark."""
        if command not in PLUG_COMMANDS or flags.get("query"):
            return
        for index, target in self._plug_targets(command, args, flags):
            node = plug_node(target)
            node_type = ask(cmds, "nodeType", node) if node else None
            if (node_type in RULE_DATA["codeNodeTypes"] and command in ("setAttr", "connectAttr")
                    and index == PLUG_COMMANDS[command]["target"][0] and not self.lifted("code-nodes")):
                raise PolicyRefusal(
                    "code-nodes",
                    f"{command} on {target!r} is refused by the policy (rule 'code-nodes': "
                    f"{node_type} nodes hold code that Maya runs)",
                )
            names = plug_attribute_names(target)
            if command == "setAttr" and not strings(args[1:]):
                continue  # code and file names are strings: a number sets neither
            if node:
                for name in list(names):
                    long = ask(cmds, "attributeQuery", name, node=node, longName=True)
                    if isinstance(long, str) and long not in names:
                        names.append(long)
            self._refuse_code(command, target, names, CODE_NAMES | CODE_BY_TYPE.get(node_type, frozenset()), args)
            by_type = FILENAME_BY_TYPE.get(node_type, frozenset())
            marked = node and names and ask(cmds, "attributeQuery", names[-1], node=node, usedAsFilename=True) is True
            if marked or any(name in FILENAME_NAMES or name in by_type for name in names):
                self._file_name_value(command, target, args)

    # ---- scenes ----------------------------------------------------------------------------

    def _loads_scene(self, command: str, flags: Dict[str, Any]) -> bool:
        return command == "file" and any(flags.get(name) for name in RULE_DATA["loadingFileFlags"])

    def _scan_scene_file(self, command: str, args: List[Any], flags: Dict[str, Any]) -> None:
        """A scene Maya would source as MEL (Maya ASCII, whatever its name) that would run code
        is refused before Maya reads it."""
        if not self._loads_scene(command, flags) or self.lifted("code-attribute"):
            return
        for path in strings(args[:1]):
            lines = mel_lines(path, flags.get("type") if isinstance(flags.get("type"), str) else None)
            found = MaScan(RULE_DATA, self._referenced_scene(set())).scan(lines)
            if found:
                raise _refuse("code-attribute", f"the scene {os.path.basename(path)!r}",
                              f"it carries {', '.join(found[:5])}")

    def _referenced_scene(self, seen: set):
        """For a scene a .ma file references: the path is checked like any path, and a .ma
        one is read the same way (once each)."""

        def lines(value: str, file_type: Optional[str]) -> Iterable[str]:
            path = self.check_path("a referenced scene", value)
            if path in seen or len(seen) > 64:
                return ()
            seen.add(path)
            return mel_lines(path, file_type)

        return lines

    def scene_code_snapshot(self, cmds, command: str, flags: Dict[str, Any]) -> Optional[Dict[str, Any]]:
        """Before a scene load: the code the scene holds now (to tell what the load brought)."""
        if not self._loads_scene(command, flags) or self.lifted("code-attribute"):
            return None
        return scene_code(cmds, SCRIPT_TYPES_RUNNING_LATER, RENDER_CODE)

    def check_loaded_scene(self, cmds, command: str, flags: Dict[str, Any], before: Optional[Dict[str, Any]],
                           result: Any) -> None:
        """After a scene load (any format): code it brought in is emptied, the load is undone
        (a new scene after ``open``; the new nodes deleted after an import or reference) and
        the call refused."""
        if before is None:
            return
        after = scene_code(cmds, SCRIPT_TYPES_RUNNING_LATER, RENDER_CODE)
        nodes = sorted(set(after["nodes"]) - set(before["nodes"]))
        plugs = sorted(plug for plug, value in after["plugs"].items() if value != before["plugs"].get(plug))
        if not nodes and not plugs:
            return
        for node in nodes:
            ask(cmds, "setAttr", f"{node}.after", "", type="string")
        for plug in plugs:
            ask(cmds, "setAttr", plug, before["plugs"].get(plug) or "", type="string")
        if flags.get("open"):
            ask(cmds, "file", new=True, force=True)
        elif flags.get("reference") and isinstance(result, str):
            # A reference's nodes cannot be deleted: the reference goes (its after scripts emptied).
            ask(cmds, "file", result, removeReference=True)
        elif flags.get("loadReference"):
            ask(cmds, "file", unloadReference=flags["loadReference"])
        else:
            new_nodes = result if isinstance(result, list) else []
            for node in new_nodes + nodes:
                ask(cmds, "delete", node)
        raise _refuse("code-attribute", "the loaded scene", f"it brought in {', '.join(nodes + plugs)}; the load was undone")

    def _check_code_nodes(self, command: str, args: List[Any], flags: Dict[str, Any]) -> None:
        if command in ("createNode", "shadingNode") and args and not self.lifted("code-nodes"):
            if args[0] in RULE_DATA["codeNodeTypes"]:
                raise _refuse("code-nodes", f"{command} of type {args[0]!r}")

    def _check_script_nodes(self, command: str, flags: Dict[str, Any]) -> None:
        if command != "file" or self.lifted("script-nodes"):
            return
        if any(flags.get(name) for name in RULE_DATA["loadingFileFlags"]):
            if flags.get("executeScriptNodes"):
                raise _refuse("script-nodes", "file with executeScriptNodes=True")
            flags["executeScriptNodes"] = False

    def _check_paths(self, command: str, args: List[Any], flags: Dict[str, Any], query: bool) -> Dict[str, Any]:
        spec = RULE_DATA["paths"].get(command)
        if spec is None or self.lifted("data-folder"):
            return flags
        if spec["args"]:
            for index, value in enumerate(args):
                if isinstance(value, str):
                    args[index] = self.check_path(f"{command} argument {index}", value)
        for name in spec["flags"]:
            if name in flags and not (query and flags[name] is True):
                flags[name] = self._paths_in(f"{command}({name})", flags[name])
        return flags

    def _paths_in(self, label: str, value: Any) -> Any:
        if isinstance(value, str):
            return self.check_path(label, value)
        if isinstance(value, (list, tuple)):
            return [self._paths_in(label, item) for item in value]
        return value

    def check_path(self, label: str, value: str) -> str:
        """The absolute path to use for ``value``, inside the data folder, or a refusal."""
        if value == "":
            return value
        if "$" in value or value.startswith("~") or "%" in value:
            raise _refuse("data-folder", f"{label} {value!r}", "Maya would expand its variables; give a plain path")
        try:
            return self.folder.check(label, value)
        except DataFolderRefusal as refusal:
            raise PolicyRefusal(refusal.rule, refusal.message) from None

    def describe(self) -> Dict[str, Any]:
        return {"dataDir": self.data_dir, "allow": list(self.allow)}
