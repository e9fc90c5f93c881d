"""The Maya side's policy against the attacks of the second security review: render-time and
scene code in attributes, file-name attributes and path flags outside the data folder, programs
started and settings written. Each goes through ``run_command`` as a call from the link would."""

import os
import shutil
import tempfile
import unittest

import _paths  # noqa: F401
from dcc_link import HandlerError

from dcc_maya.commands import run_command
from dcc_maya.policy import RULE_DATA, Policy


class SceneCmds:
    """Stands for maya.cmds over a tiny scene: node types, attribute values, usedAsFilename
    marks; records every call. ``file`` with ``i``/``open`` loads ``self.on_load``."""

    def __init__(self):
        self.calls = []
        self.types = {"defaultRenderGlobals": "renderGlobals", "file1": "file", "persp": "camera",
                      "script1": "script", "myNode": "transform"}
        self.values = {}
        self.marked = set()  # (node, attribute) marked usedAsFilename
        self.on_load = {}

    def __getattr__(self, name):
        def command(*args, **flags):
            self.calls.append((name, args, flags))
            handler = type(self).__dict__.get(f"_{name}")
            return handler(self, *args, **flags) if handler else None

        return command

    def _nodeType(self, node):
        if node not in self.types:
            raise RuntimeError(f"No object matches name: {node}")
        return self.types[node]

    def _attributeQuery(self, name, node=None, longName=False, usedAsFilename=False):
        if usedAsFilename:
            return (node, name) in self.marked
        return {"ftn": "fileTextureName", "prm": "preRenderMel", "myAlias": "preMel"}.get(name, name)

    def _ls(self, type=None):
        return sorted(node for node, kind in self.types.items() if kind == type)

    def _getAttr(self, plug):
        return self.values.get(plug)

    def _setAttr(self, plug, value=None, type=None):
        self.values[plug] = value

    def _file(self, *args, **flags):
        if flags.get("reference"):
            self.types.update(self.on_load.get("types", {}))
            return args[0]
        if flags.get("i") or flags.get("open"):
            for node, kind in self.on_load.get("types", {}).items():
                self.types[node] = kind
            self.values.update(self.on_load.get("values", {}))
            return list(self.on_load.get("types", {}))
        return None

    def ran(self, name):
        return [call for call in self.calls if call[0] == name]


class PolicyAttacksTest(unittest.TestCase):
    def setUp(self):
        self.folder = tempfile.mkdtemp(prefix="dcc-maya-attacks-")
        self.policy = Policy(self.folder)
        self.cmds = SceneCmds()

    def tearDown(self):
        shutil.rmtree(self.folder)

    def run_cmd(self, command, args=(), flags=None):
        return run_command(self.cmds, self.policy, {"command": command, "args": list(args), "flags": flags or {}})

    def refused(self, command, args=(), flags=None):
        with self.assertRaises(HandlerError) as caught:
            self.run_cmd(command, args, flags)
        self.assertEqual(caught.exception.code, "POLICY", caught.exception.message)
        return caught.exception.data["rule"]

    def test_render_time_mel_is_refused_on_setAttr_by_long_short_and_aliased_names(self):
        for plug in ["defaultRenderGlobals.preMel", "defaultRenderGlobals.preRenderMel",
                     "defaultRenderGlobals.prm", "defaultRenderGlobals.postRenderLayerMel",
                     "defaultRenderGlobals.preFurRenderMel", ":defaultRenderGlobals.pom",
                     "defaultRenderGlobals.myAlias"]:
            with self.subTest(plug=plug):
                self.assertEqual(self.refused("setAttr", [plug, 'system("id")'], {"type": "string"}),
                                 "code-attribute")
        self.assertEqual(self.cmds.ran("setAttr"), [])

    def test_every_render_globals_hook_of_the_data_is_refused(self):
        group = next(g for g in RULE_DATA["codeAttributes"] if "renderGlobals" in g["nodeTypes"])
        self.assertEqual(sorted(group["attributes"]), sorted([
            "preMel", "postMel", "preRenderMel", "postRenderMel", "preRenderLayerMel",
            "postRenderLayerMel", "preFurRenderMel", "postFurRenderMel"]))
        for long, short in group["attributes"].items():
            for name in (long, short):
                self.assertEqual(self.refused("setAttr", [f"defaultRenderGlobals.{name}", "x"], {"type": "string"}),
                                 "code-attribute")

    def test_script_node_before_and_after_are_refused_through_the_node_type(self):
        for plug in ["script1.before", "script1.a"]:
            self.assertIn(self.refused("setAttr", [plug, "x"], {"type": "string"}), ("code-nodes", "code-attribute"))

    def test_connections_aliases_and_added_attributes_into_code_are_refused(self):
        self.assertEqual(self.refused("connectAttr", ["myNode.notes", "defaultRenderGlobals.preMel"]), "code-attribute")
        self.assertEqual(self.refused("aliasAttr", ["hook", "defaultRenderGlobals.preRenderMel"]), "code-attribute")
        self.assertEqual(self.refused("addAttr", ["myNode"], {"longName": "preRenderMel", "dataType": "string"}),
                         "code-attribute")
        self.assertEqual(self.refused("addAttr", ["myNode"], {"ln": "preMel", "dt": "string"}), "code-attribute")
        self.assertEqual(self.refused("copyAttr", ["a", "defaultRenderGlobals"], {"attribute": "preMel"}),
                         "code-attribute")

    def test_file_name_attributes_are_confined_to_the_data_folder(self):
        self.assertEqual(self.refused("setAttr", ["file1.fileTextureName", "/etc/passwd"], {"type": "string"}),
                         "data-folder")
        self.assertEqual(self.refused("setAttr", ["file1.ftn", "../../etc/passwd"], {"type": "string"}),
                         "data-folder")
        self.assertEqual(self.refused("connectAttr", ["myNode.notes", "file1.fileTextureName"]), "data-folder")
        self.run_cmd("setAttr", ["file1.fileTextureName", "textures/wood.png"], {"type": "string"})
        self.assertEqual(self.cmds.ran("setAttr")[-1][1],
                         ("file1.fileTextureName", os.path.join(self.policy.data_dir, "textures", "wood.png")))

    def test_attributes_maya_marks_used_as_filename_are_confined(self):
        # Not in the rule data: Maya's own mark (attributeQuery -usedAsFilename) decides.
        self.cmds.marked.add(("myNode", "cachePathCustom"))
        self.assertEqual(self.refused("setAttr", ["myNode.cachePathCustom", "/root/x"], {"type": "string"}),
                         "data-folder")
        self.run_cmd("setAttr", ["myNode.notes", "/root/x is only text"], {"type": "string"})

    def test_path_flags_are_confined(self):
        for command, flags in [("writeTake", {"take": "/root/x.mov"}), ("readTake", {"take": "/etc/passwd"}),
                               ("diskCache", {"tempDir": "/root"}), ("blendShape", {"export": "/tmp/x.shp"})]:
            with self.subTest(command=command):
                self.assertEqual(self.refused(command, [], flags), "data-folder")
        self.run_cmd("readTake", [], {"take": "takes/a.mov"})
        self.assertEqual(self.cmds.ran("readTake")[-1][2], {"take": os.path.join(self.policy.data_dir, "takes", "a.mov")})

    def test_programs_and_settings_are_refused(self):
        for command, args, flags, rule in [
            ("showHelp", ["https://example.com"], {"absolute": True}, "starts-program"),
            ("help", ["ls"], {"documentation": True}, "starts-program"),
            ("launch", [], {"webPage": "https://example.com"}, "outside-maya"),
            ("pluginInfo", [], {"savePluginPrefs": True}, "settings-files"),
            ("pluginInfo", ["x"], {"edit": True, "writeRequires": True}, "settings-files"),
            ("pluginInfo", [], {"query": True, "savePluginPrefs": True}, "settings-files"),
            ("workspace", [], {"fileRule": ["mel", "python(\"import os\")"]}, "settings-files"),
            ("workspace", [], {"saveWorkspace": True}, "settings-files"),
            ("workspace", [], {"newWorkspace": True}, "settings-files"),
            ("savePrefs", [], {}, "settings-files"),
        ]:
            with self.subTest(command=command, flags=flags):
                self.assertEqual(self.refused(command, args, flags), rule)
        # Reading a setting stays allowed.
        self.run_cmd("workspace", [], {"query": True, "fileRule": True})

    def test_a_ma_scene_carrying_render_time_mel_is_refused_before_maya_reads_it(self):
        scene = os.path.join(self.folder, "shot.ma")
        with open(scene, "w", encoding="utf-8") as handle:
            handle.write('//Maya ASCII 2025 scene\ncreateNode transform -n "a";\n'
                         'select -ne :defaultRenderGlobals;\n\tsetAttr ".prm" -type "string" "system(\\"id\\")";\n')
        for flags in ({"i": True}, {"open": True, "force": True}, {"reference": True}):
            with self.subTest(flags=flags):
                self.assertEqual(self.refused("file", ["shot.ma"], flags), "code-attribute")
        self.assertEqual(self.cmds.ran("file"), [])

    def test_a_ma_scene_with_an_expression_or_a_late_script_node_is_refused(self):
        for name, body in [
            ("expr.ma", 'createNode expression -n "e1";\n\tsetAttr ".ixp" -type "string" "system(\\"id\\")";\n'),
            ("after.ma", 'createNode script -n "s1";\n\tsetAttr ".a" -type "string" "system(\\"id\\")";\n'),
            ("render.ma", 'createNode script -n "s2";\n\tsetAttr ".b" -type "string" "print 1";\n\tsetAttr ".st" 4;\n'),
        ]:
            with open(os.path.join(self.folder, name), "w", encoding="utf-8") as handle:
                handle.write(body)
            with self.subTest(scene=name):
                self.assertEqual(self.refused("file", [name], {"i": True}), "code-attribute")

    def test_a_plain_scene_and_maya_configuration_nodes_load(self):
        with open(os.path.join(self.folder, "plain.ma"), "w", encoding="utf-8") as handle:
            handle.write('createNode script -n "sceneConfigurationScriptNode";\n'
                         '\tsetAttr ".b" -type "string" "playbackOptions -min 1 -max 24";\n\tsetAttr ".st" 6;\n'
                         'select -ne :defaultRenderGlobals;\n\tsetAttr ".prm" -type "string" "";\n')
        self.run_cmd("file", ["plain.ma"], {"i": True})
        self.assertEqual(len(self.cmds.ran("file")), 1)

    def test_code_a_loaded_scene_brought_in_is_emptied_and_the_load_undone(self):
        # A binary scene cannot be read first: what it brought is checked in Maya after loading.
        open(os.path.join(self.folder, "shot.mb"), "wb").close()
        self.cmds.on_load = {"types": {"evil": "script", "e1": "expression"},
                             "values": {"evil.after": 'system("id")', "defaultRenderGlobals.preMel": "system"}}
        self.assertEqual(self.refused("file", ["shot.mb"], {"i": True}), "code-attribute")
        self.assertEqual(self.cmds.values["evil.after"], "")
        self.assertIn(self.cmds.values["defaultRenderGlobals.preMel"], ("", None))
        deleted = {call[1][0] for call in self.cmds.ran("delete")}
        self.assertTrue({"evil", "e1"} <= deleted)

    def test_a_referenced_scene_with_code_is_removed_again(self):
        open(os.path.join(self.folder, "asset.mb"), "wb").close()
        self.cmds.on_load = {"types": {"e1": "expression"}}
        self.assertEqual(self.refused("file", ["asset.mb"], {"reference": True}), "code-attribute")
        self.assertEqual(self.cmds.ran("file")[-1], ("file", (os.path.join(self.policy.data_dir, "asset.mb"),),
                                                     {"removeReference": True}))

    def test_a_node_named_like_a_hook_is_not_an_attribute(self):
        self.run_cmd("addAttr", ["preMel"], {"longName": "notes", "dataType": "string"})
        self.run_cmd("copyAttr", ["preMel", "myNode"], {"values": True})

    def test_an_opened_scene_with_code_is_replaced_by_a_new_scene(self):
        open(os.path.join(self.folder, "shot.mb"), "wb").close()
        self.cmds.on_load = {"values": {"defaultRenderGlobals.postRenderMel": "system"}}
        self.assertEqual(self.refused("file", ["shot.mb"], {"open": True, "force": True}), "code-attribute")
        self.assertEqual(self.cmds.ran("file")[-1][2], {"new": True, "force": True})


if __name__ == "__main__":
    unittest.main()
