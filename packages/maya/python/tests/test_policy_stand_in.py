"""The attacks of the second security review against the strict stand-in ``maya`` package: the
stand-in models what Maya does with the guarded attributes (render runs the render globals' MEL
hooks and reads file textures), so each test shows the attack working without the policy and
refused with it."""

import contextlib
import io
import shutil
import tempfile
import unittest

import _paths  # noqa: F401
from dcc_link import HandlerError
import maya.cmds as cmds
import maya.standalone

from dcc_maya.commands import run_command
from dcc_maya.policy import Policy


class StandInPolicyTest(unittest.TestCase):
    def setUp(self):
        maya.standalone.initialize(name="python")
        self.folder = tempfile.mkdtemp(prefix="dcc-maya-stand-in-")
        self.policy = Policy(self.folder)

    def tearDown(self):
        shutil.rmtree(self.folder)

    def cmd(self, command, args=(), flags=None):
        return run_command(cmds, self.policy, {"command": command, "args": list(args), "flags": flags or {}})

    def refused(self, command, args=(), flags=None):
        with self.assertRaises(HandlerError) as caught:
            self.cmd(command, args, flags)
        self.assertEqual(caught.exception.code, "POLICY", caught.exception.message)
        return caught.exception.data["rule"]

    def rendered(self):
        output = io.StringIO()
        with contextlib.redirect_stderr(output):
            self.cmd("render", [])
        return output.getvalue()

    def test_without_the_policy_render_runs_the_hooks(self):
        # The stand-in is a faithful target: the attack works when nothing stops it.
        cmds.setAttr("defaultRenderGlobals.preRenderMel", 'system("id")', type="string")
        self.assertIn('ran MEL at render (preRenderMel): system("id")', self.rendered())

    def test_render_time_mel_never_reaches_render(self):
        for plug in ["defaultRenderGlobals.preMel", "defaultRenderGlobals.prm", "defaultRenderGlobals.postRenderMel"]:
            self.assertEqual(self.refused("setAttr", [plug, 'system("id")'], {"type": "string"}), "code-attribute")
        cmds.aliasAttr("hook", "defaultRenderGlobals.preMel")
        self.assertEqual(self.refused("setAttr", ["defaultRenderGlobals.hook", "system"], {"type": "string"}),
                         "code-attribute")
        self.assertNotIn("ran MEL", self.rendered())

    def test_an_attribute_maya_marks_as_a_file_name_is_confined(self):
        self.cmd("addAttr", ["pSphere1"], {"longName": "texPath", "dataType": "string", "usedAsFilename": True})
        self.assertEqual(self.refused("setAttr", ["pSphere1.texPath", "/etc/passwd"], {"type": "string"}),
                         "data-folder")
        self.assertEqual(self.refused("setAttr", ["defaultRenderGlobals.imageFilePrefix", "/root/out"],
                                      {"type": "string"}), "data-folder")

    def test_path_flags_programs_and_settings_are_refused_before_maya(self):
        for command, flags, rule in [
            ("writeTake", {"take": "/root/x.mov"}, "data-folder"),
            ("readTake", {"take": "/etc/passwd"}, "data-folder"),
            ("diskCache", {"tempDir": "/root"}, "data-folder"),
            ("showHelp", {"absolute": True}, "starts-program"),
            ("pluginInfo", {"savePluginPrefs": True}, "settings-files"),
            ("workspace", {"fileRule": ["mel", "system"]}, "settings-files"),
            ("workspace", {"saveWorkspace": True}, "settings-files"),
        ]:
            with self.subTest(command=command, flags=flags):
                self.assertEqual(self.refused(command, [], flags), rule)
        # Allowed forms still reach the strict stand-in, which accepts them as Maya would.
        self.cmd("readTake", [], {"take": "takes/a.mov"})
        self.cmd("workspace", [], {"query": True, "fileRule": True})


if __name__ == "__main__":
    unittest.main()
