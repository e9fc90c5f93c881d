"""What the Maya side refuses (no Maya needed), from ``policy.generated.json``: the one owner of
the rule data, which the TypeScript adapter reads too (there it is the first wall, here the
second). Configured by ``DCC_MAYA_DATA_DIR`` (the data folder, absolute) and
``DCC_MAYA_POLICY`` (optional JSON ``{"allow": ["rule", ...]}`` lifting whole rules).
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

ENV_DATA_DIR = "DCC_MAYA_DATA_DIR"
ENV_POLICY = "DCC_MAYA_POLICY"
DATA_PATH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "policy.generated.json")

with open(DATA_PATH, encoding="utf-8") as _handle:
    RULE_DATA: Dict[str, Any] = json.load(_handle)

RULES: Dict[str, str] = RULE_DATA["rules"]
CATALOG = frozenset(RULE_DATA["catalog"])


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
        if command not in CATALOG and not self.lifted("not-in-catalog"):
            raise _refuse("not-in-catalog", f"the command {command}")
        rule = RULE_DATA["commands"].get(command)
        if rule is not None and not self.lifted(rule):
            raise _refuse(rule, f"the command {command}")
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
            # A query names the flag to read (`q=True, command=True`): nothing runs.
            if flag_rule is not None and not (query and value is True) and not self.lifted(flag_rule):
                raise _refuse(flag_rule, f"the flag {long!r} of {command}")
            out[long] = value
        self._check_code_nodes(command, args, out)
        self._check_script_nodes(command, out)
        return self._check_paths(command, args, out, query)

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
