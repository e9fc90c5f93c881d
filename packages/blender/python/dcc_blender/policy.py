"""What the host refuses to do (no bpy needed): operators that run Python or reach outside
Blender, and file paths outside the data folder.

Configured by ``DCC_BLENDER_DATA_DIR`` (the data folder, absolute) and ``DCC_BLENDER_POLICY``
(optional JSON ``{"allow": [...]}``): each entry is a rule name (``python-scripts``) or an
operator pattern (``script.python_file_run``, ``wm.url_*``) whose refusal is lifted.
"""

from __future__ import annotations

import fnmatch
import functools
import os
import re
from typing import Dict, Iterable, Mapping, Optional, Tuple

# PolicyRefusal and PolicyConfigError are dcc_link's, imported from here by the other modules too.
from dcc_link import (  # noqa: F401
    DATA_FOLDER_RULE,
    PolicyConfigError,
    PolicyRefusal,
    policy_data_folder,
    read_policy_env,
)

ENV_DATA_DIR = "DCC_BLENDER_DATA_DIR"
ENV_POLICY = "DCC_BLENDER_POLICY"

# Rule name -> (operator patterns, why). Checked in this order; the first match names the rule.
OPERATOR_RULES: Tuple[Tuple[str, Tuple[str, ...], str], ...] = (
    (
        "python-scripts",
        ("script.*", "text.run_script", "text.refresh_pyconstraints", "console.*"),
        "it runs Python code",
    ),
    (
        "context-exec",
        ("wm.context_*", "wm.properties_*", "wm.operator_pie_enum"),
        "it evaluates its data_path argument as Python",
    ),
    (
        "preset-files",
        ("*.*preset_add", "*.*preset_remove", "*.*preset_save", "wm.operator_presets_cleanup"),
        "it writes or removes a Python preset in the user's configuration",
    ),
    (
        "extensions",
        ("extensions.*",),
        "it installs, removes, enables or downloads extensions (code that runs in Blender), or changes their settings",
    ),
    (
        "network",
        ("asset.asset_download", "asset.assets_download", "asset.library_reload_listing"),
        "it downloads from the network",
    ),
    (
        "asset-library-files",
        (
            "brush.asset_save*",
            "brush.asset_delete",
            "brush.asset_edit_metadata",
            "brush.asset_revert",
            "poselib.asset_delete",
            "poselib.asset_modify",
        ),
        "it writes to an asset library's files, outside the data folder",
    ),
    (
        "collection-exporters",
        ("collection.exporter_export", "collection.export_all", "wm.collection_export_all"),
        "it writes to the file paths stored in collection exporters, which the host does not check",
    ),
    (
        "preferences",
        (
            "preferences.*",
            "wm.read_userpref",
            "wm.save_userpref",
            "wm.read_factory_userpref",
            "wm.save_homefile",
            "wm.app_template_install",
            "wm.keyconfig_import",
            "wm.theme_install",
            "wm.addon_*",
            "wm.clear_recent_files",
        ),
        "it changes Blender's preferences, add-ons or user configuration",
    ),
    (
        "external-apps",
        (
            "wm.url_open*",
            "wm.doc_view*",
            "wm.path_open",
            "image.external_edit",
            "ui.editsource",
            "ui.edittranslation_init",
            "wm.previews_batch_*",
            "render.play_rendered_anim",
            "asset.browse_containing_blend_file",
            "file.external_operation",
            "text.jump_to_file_at_point",
            "wm.xr_*",
        ),
        "it starts another program or opens a web page",
    ),
    ("quit", ("wm.quit_blender", "wm.window_close"), "it ends Blender"),
    (
        "outside-data",
        ("wm.recover_last_session", "wm.save_auto_save"),
        "it reads or writes a file outside the data folder",
    ),
    (
        "text-external-file",
        ("text.save", "text.reload", "text.resolve_conflict"),
        "it reads or writes a text's own file, which may be outside the data folder",
    ),
    (
        "freestyle-python",
        ("scene.freestyle_module_add", "scene.freestyle_module_open"),
        "Freestyle style modules are Python run at render time",
    ),
    ("file-browser-fs", ("file.delete", "file.rename"), "it deletes or renames files"),
    ("crashes", ("ui.view_drop",), "its poll() crashes Blender"),
)

UNPACK_RULE = "unpack-external"
DRIVER_RULE = "driver-expression"
WINDOW_MANAGER_RULE = "window-manager"
NAME_RULE = "name-characters"
IMPORT_RULE = "import-references"
UNREVIEWED_RULE = "unreviewed-operator"
RULE_NAMES = frozenset(
    [name for name, _, _ in OPERATOR_RULES]
    + [DATA_FOLDER_RULE, UNPACK_RULE, DRIVER_RULE, WINDOW_MANAGER_RULE, NAME_RULE, IMPORT_RULE, UNREVIEWED_RULE]
)
# Every operator of the Blenders the rules above were reviewed against (the tested versions):
# one outside it (an add-on's, or new in a later Blender) is refused until it is reviewed.
REVIEWED_FILE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "reviewed_operators.generated.json")
_reviewed: list = []


def reviewed_operators() -> frozenset:
    """The operators reviewed for the rules (``reviewed_operators.generated.json``)."""
    if not _reviewed:
        import json  # noqa: PLC0415

        with open(REVIEWED_FILE, encoding="utf8") as handle:
            _reviewed.append(frozenset(json.load(handle)["operators"]))
    return _reviewed[0]
# Control characters (C0 and DEL): a name holding one can start a new line or field in the text
# files exporters write (an .mtl's "map_Kd" line), which other programs then parse.
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")

# Which options and properties name files: see path_options.
LOCAL_UNPACK_METHODS = frozenset({"USE_LOCAL", "WRITE_LOCAL", "REMOVE", "KEEP"})

# Names Blender's simple driver expressions know (evaluated without Python); anything else in a
# driver expression could reach Python's builtins.
SIMPLE_DRIVER_NAMES = frozenset(
    """frame pi True False and or not if else sin cos tan asin acos atan atan2 floor ceil trunc
    round int abs fmod min max pow sqrt exp log log10 degrees radians smoothstep clamp lerp
    signum""".split()
)
_DRIVER_TOKEN = re.compile(r"\s*(?:(\d+\.?\d*(?:[eE][-+]?\d+)?|\.\d+(?:[eE][-+]?\d+)?)|([A-Za-z_]\w*)|(\*\*|==|!=|<=|>=|[-+*/%<>(),]))")


# The rules are fixed: each operator's answer is worked out once (about 60 patterns matched).
@functools.lru_cache(maxsize=4096)
def operator_rule(operator: str) -> Optional[Tuple[str, str]]:
    """The (rule, reason) of ``OPERATOR_RULES`` refusing ``operator`` by name, or None."""
    for rule, patterns, reason in OPERATOR_RULES:
        if any(fnmatch.fnmatchcase(operator, pattern) for pattern in patterns):
            return rule, reason
    return None


class Policy:
    """The host's policy: ``data_dir`` (absolute, resolved) and the lifted rules or patterns."""

    def __init__(self, data_dir: str, allow: Iterable[str] = ()) -> None:
        # The generic checks (relative paths, "..", symbolic links) are dcc_link's.
        self.folder = policy_data_folder(data_dir)
        self.data_dir = self.folder.root
        self.allow = tuple(allow)
        for entry in self.allow:
            if not isinstance(entry, str) or not entry:
                raise PolicyConfigError(f"allow entries are strings, not {entry!r}")
            if "." not in entry and entry not in RULE_NAMES:
                known = ", ".join(sorted(RULE_NAMES))
                raise PolicyConfigError(
                    f"unknown rule {entry!r} in allow (rules: {known}; or an operator pattern such as script.*)"
                )

    @classmethod
    def from_env(cls, environ: Optional[Mapping[str, str]] = None) -> "Policy":
        """Reads ``DCC_BLENDER_DATA_DIR`` and ``DCC_BLENDER_POLICY``."""
        env = os.environ if environ is None else environ
        data_dir, allow = read_policy_env(env, ENV_DATA_DIR, ENV_POLICY, "rule or pattern")
        return cls(data_dir, allow)

    # ---- rules ------------------------------------------------------------------------------

    def lifted(self, rule: str, operator: Optional[str] = None) -> bool:
        """True when ``allow`` names the rule or matches the operator."""
        for entry in self.allow:
            if entry == rule:
                return True
            if operator is not None and "." in entry and fnmatch.fnmatchcase(operator, entry):
                return True
        return False

    def operator_rule(self, operator: str) -> Optional[Tuple[str, str]]:
        """The (rule, reason) refusing ``operator`` by name, or None."""
        return operator_rule(operator)

    def check_operator(self, operator: str) -> None:
        """Raises ``PolicyRefusal`` if ``operator`` is refused by name."""
        found = self.operator_rule(operator)
        if found is not None and not self.lifted(found[0], operator):
            rule, reason = found
            raise PolicyRefusal(
                rule, f"{operator} is refused by the host's policy (rule {rule!r}: {reason})"
            )

    def check_reviewed(self, operator: str) -> None:
        """Raises ``PolicyRefusal`` for an operator outside the reviewed list (an add-on's, or new
        in this Blender), unless rule ``unreviewed-operator`` or the operator is allowed."""
        if operator in reviewed_operators() or self.lifted(UNREVIEWED_RULE, operator):
            return
        raise PolicyRefusal(
            UNREVIEWED_RULE,
            f"{operator} is refused by the host's policy (rule {UNREVIEWED_RULE!r}: it is not one "
            f"of the operators of the tested Blenders, whose risks were reviewed; the host can "
            f"allow it by name or lift the rule)",
        )

    def check_unpack(self, what: str, method: str) -> None:
        """Unpacking to the files' original paths writes outside the data folder."""
        if method not in LOCAL_UNPACK_METHODS and not self.lifted(UNPACK_RULE, what):
            raise PolicyRefusal(
                UNPACK_RULE,
                f"{what} with method {method!r} is refused (rule {UNPACK_RULE!r}: it writes files "
                f"at their original paths; use USE_LOCAL or WRITE_LOCAL)",
            )

    def check_driver_expression(self, expression: str, variables: Iterable[str]) -> None:
        """Refuses a driver expression that is not one of Blender's simple expressions (those
        are evaluated without Python): only numbers, operators, the driver's variables and the
        simple math functions."""
        if self.lifted(DRIVER_RULE):
            return
        known = SIMPLE_DRIVER_NAMES | set(variables)
        pos = 0
        text = expression.rstrip()
        while pos < len(text):
            match = _DRIVER_TOKEN.match(text, pos)
            if match is None:
                raise PolicyRefusal(
                    DRIVER_RULE,
                    f"driver expression {expression!r} is refused (rule {DRIVER_RULE!r}): at "
                    f"position {pos} {text[pos]!r} is not part of a simple expression",
                )
            name = match.group(2)
            if name is not None and name not in known:
                raise PolicyRefusal(
                    DRIVER_RULE,
                    f"driver expression {expression!r} is refused (rule {DRIVER_RULE!r}): {name!r} "
                    f"is neither a variable of the driver nor a simple math function",
                )
            pos = match.end()

    def check_name(self, label: str, value: object) -> None:
        """Refuses a name holding a control character (newline, tab, CR, other C0, DEL)."""
        if not isinstance(value, str) or self.lifted(NAME_RULE):
            return
        found = _CONTROL.search(value)
        if found is not None:
            raise PolicyRefusal(
                NAME_RULE,
                f"{label} {value!r} is refused (rule {NAME_RULE!r}): names must not hold control "
                f"characters ({found.group()!r} at position {found.start()}); exporters write names "
                "into text files other programs parse",
            )

    # ---- paths ------------------------------------------------------------------------------

    def resolve(self, value: str, base: Optional[str] = None) -> str:
        """The absolute path ``value`` names: relative paths and Blender's ``//`` are taken
        from ``base`` (the data folder unless given); ``~`` is not expanded."""
        if value.startswith("//"):
            value = value[2:]
        return self.folder.resolve(value, base)

    def inside(self, absolute: str) -> bool:
        """True when ``absolute`` resolves (symlinks followed) inside the data folder."""
        return self.folder.inside(absolute)

    def check_path(
        self, argument: str, value: str, subtype: str = "FILE_PATH", base: Optional[str] = None
    ) -> str:
        """Returns the absolute path to use for ``value`` or raises ``PolicyRefusal`` naming the
        argument, the path and the rule. A FILE_NAME must be a bare name (no folder)."""
        if not isinstance(value, str):
            return value
        if self.lifted(DATA_FOLDER_RULE):
            return value
        if subtype == "FILE_NAME":
            if value in ("", ) :
                return value
            if "/" in value or "\\" in value or value in (".", ".."):
                raise PolicyRefusal(
                    DATA_FOLDER_RULE,
                    f"{argument} {value!r} is refused (rule {DATA_FOLDER_RULE!r}): a file name must not name a folder",
                )
            joined = os.path.join(base or self.data_dir, value)
            if not self.inside(joined):
                raise self._outside(argument, value, joined)
            return value
        absolute = self.resolve(value, base)
        if not self.inside(absolute):
            raise self._outside(argument, value, absolute)
        # Blender saves over an existing folder by renaming it aside (the data folder itself
        # would end up outside itself), so a file path must not name one.
        if subtype == "FILE_PATH" and not value.endswith(("/", os.sep)) and os.path.isdir(absolute):
            raise PolicyRefusal(
                DATA_FOLDER_RULE,
                f"{argument} {value!r} is refused (rule {DATA_FOLDER_RULE!r}): it names "
                f"{self._folder(absolute)}, not a file; give a file name inside it, or end the "
                "path with '/' where a folder is meant",
            )
        # Keep a folder's trailing separator: Blender reads "renders/" as a folder to write into.
        if value.endswith(("/", os.sep)) and not absolute.endswith(os.sep):
            absolute += os.sep
        return absolute

    def _folder(self, absolute: str) -> str:
        relative = self.relative(absolute)
        return "the data folder" if relative == "." else f"the folder {relative!r}"

    def _outside(self, argument: str, value: str, absolute: str) -> PolicyRefusal:
        refusal = self.folder.outside(argument, value, absolute)
        return PolicyRefusal(refusal.rule, refusal.message)

    def relative(self, absolute: str) -> str:
        """``absolute`` relative to the data folder (for results)."""
        return self.folder.relative(absolute)

    def describe(self) -> Dict[str, object]:
        """The policy as JSON (for ``ping``)."""
        return {"dataDir": self.data_dir, "allow": list(self.allow)}

