"""The Maya side's policy, table-driven over the generated rule data: every refused command and
every code-carrying flag of the catalog is refused through ``run_command`` before Maya sees it."""

import os
import tempfile
import unittest

import _paths  # noqa: F401
from dcc_link import HandlerError

from dcc_maya.commands import run_command
from dcc_maya.policy import RULE_DATA, Policy, PolicyConfigError


class RecordingCmds:
    """Stands for maya.cmds: records what reaches it."""

    def __init__(self):
        self.calls = []

    def __getattr__(self, name):
        def command(*args, **flags):
            self.calls.append((name, args, flags))
            return None

        return command

    def last(self, name):
        return [call for call in self.calls if call[0] == name][-1]


class PolicyTest(unittest.TestCase):
    def setUp(self):
        self.folder = tempfile.mkdtemp(prefix="dcc-maya-policy-")
        self.policy = Policy(self.folder)
        self.cmds = RecordingCmds()

    def tearDown(self):
        os.rmdir(self.folder)

    def refused(self, command, args=(), flags=None):
        with self.assertRaises(HandlerError) as caught:
            run_command(self.cmds, self.policy, {"command": command, "args": list(args), "flags": flags or {}})
        self.assertEqual(caught.exception.code, "POLICY")
        return caught.exception

    def test_the_data_counts_every_callable_flag_of_the_catalog(self):
        self.assertEqual(RULE_DATA["counts"]["callableFlags"], 682)
        self.assertEqual(RULE_DATA["counts"]["callableCommands"], 165)

    def test_every_refused_command_is_refused_with_its_rule(self):
        self.assertGreater(len(RULE_DATA["commands"]), 40)
        for command, rule in RULE_DATA["commands"].items():
            with self.subTest(command=command):
                error = self.refused(command)
                self.assertEqual(error.data["rule"], rule)
                self.assertIn(f"rule {rule!r}", error.message)
        self.assertEqual(self.cmds.calls, [])

    def test_every_code_carrying_flag_is_refused_by_long_and_short_name(self):
        count = 0
        for command, flags in RULE_DATA["flags"].items():
            shorts = {long: short for short, long in RULE_DATA["names"][command].items() if short != long}
            for flag, rule in flags.items():
                for name in {flag, shorts.get(flag, flag)}:
                    with self.subTest(command=command, flag=name):
                        error = self.refused(command, flags={name: "print('x')"})
                        self.assertEqual(error.data["rule"], rule)
                        self.assertIn(repr(flag), error.message)
                count += 1
        self.assertGreater(count, 800)
        self.assertEqual(self.cmds.calls, [])

    def test_the_named_code_strings_are_in_the_data(self):
        for command, flag in [("file", "preSaveScript"), ("file", "postSaveScript"), ("expression", "string"),
                              ("button", "command"), ("scriptJob", None), ("python", None)]:
            if flag is None:
                self.assertIn(command, RULE_DATA["commands"])
            else:
                self.assertIn(flag, RULE_DATA["flags"][command])

    def test_commands_outside_the_catalog_are_refused(self):
        # A plug-in's command (Alembic, FBX) is not in the catalog, so the policy knows nothing of it.
        for command in ("AbcExport", "FBXExport", "notAMayaCommand"):
            self.assertEqual(self.refused(command).data["rule"], "not-in-catalog")
        run_command(self.cmds, self.policy, {"command": "ls", "args": [], "flags": {}})
        self.assertEqual(self.cmds.calls[-1][0], "ls")

    def test_a_query_of_a_code_flag_runs_nothing_and_is_allowed(self):
        run_command(self.cmds, self.policy, {"command": "expression", "args": ["expression1"],
                                             "flags": {"query": True, "string": True}})
        self.assertEqual(self.cmds.calls[0][0], "expression")

    def test_unknown_short_names_of_policed_commands_are_refused(self):
        error = self.refused("file", ["x.ma"], {"pss": "python('x')"})
        self.assertEqual(error.data["rule"], "long-flag-names")

    def test_code_nodes_are_refused(self):
        for command in ("createNode", "shadingNode"):
            for node_type in RULE_DATA["codeNodeTypes"]:
                self.assertEqual(self.refused(command, [node_type]).data["rule"], "code-nodes")

    def test_opening_a_scene_never_runs_its_script_nodes(self):
        run_command(self.cmds, self.policy, {"command": "file", "args": ["shot.ma"], "flags": {"open": True, "force": True}})
        name, args, flags = self.cmds.last("file")
        self.assertEqual(flags["executeScriptNodes"], False)
        self.assertEqual(args, (os.path.join(self.policy.data_dir, "shot.ma"),))
        error = self.refused("file", ["shot.ma"], {"o": True, "executeScriptNodes": True})
        self.assertEqual(error.data["rule"], "script-nodes")

    def test_paths_outside_the_data_folder_are_refused(self):
        for command, args, flags in [
            ("file", ["/etc/passwd"], {"open": True}),
            ("file", ["../up.ma"], {"i": True}),
            ("file", [], {"rename": "/tmp/x.ma"}),
            ("file", ["$HOME/x.ma"], {"open": True}),
            ("workspace", [], {"directory": "/"}),
            ("playblast", [], {"filename": "/tmp/movie"}),
            ("imagePlane", [], {"fileName": "~/image.png"}),
        ]:
            with self.subTest(command=command, args=args, flags=flags):
                self.assertEqual(self.refused(command, args, flags).data["rule"], "data-folder")
        self.assertEqual(self.cmds.calls, [])

    def test_every_path_flag_of_the_data_is_confined(self):
        count = 0
        for command, spec in RULE_DATA["paths"].items():
            refused = RULE_DATA["flags"].get(command, {})
            for flag in spec["flags"]:
                if flag in refused:
                    continue
                with self.subTest(command=command, flag=flag):
                    self.assertEqual(self.refused(command, flags={flag: "/etc/passwd"}).data["rule"], "data-folder")
                count += 1
        self.assertGreater(count, 120)
        self.assertEqual(self.cmds.calls, [])

    def test_a_lifted_rule_lets_the_call_through(self):
        policy = Policy(self.folder, ["data-folder"])
        run_command(self.cmds, policy, {"command": "file", "args": ["/tmp/x.ma"], "flags": {"open": True}})
        self.assertEqual(self.cmds.last("file")[1], ("/tmp/x.ma",))

    def test_configuration_errors_name_what_is_wrong(self):
        with self.assertRaisesRegex(PolicyConfigError, "DCC_MAYA_DATA_DIR"):
            Policy.from_env({})
        with self.assertRaisesRegex(PolicyConfigError, "unknown rule 'nope'"):
            Policy.from_env({"DCC_MAYA_DATA_DIR": self.folder, "DCC_MAYA_POLICY": '{"allow": ["nope"]}'})
        with self.assertRaisesRegex(PolicyConfigError, "absolute"):
            Policy("relative/folder")


if __name__ == "__main__":
    unittest.main()
