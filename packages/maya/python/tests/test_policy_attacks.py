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


# Written as Maya writes a scene: header, requirements, units, cameras with their home
# command, Maya's own configuration script nodes, shared nodes, metadata and a reference.
SCENE_AS_MAYA_WRITES_IT = """//Maya ASCII 2025 scene
//Name: shot.ma
//Codeset: UTF-8
file -rdi 1 -ns "prop" -rfn "propRN" -op "v=0;" -typ "mayaAscii" "props/prop.ma";
file -r -ns "prop" -dr 1 -rfn "propRN" -op "v=0;" -typ "mayaAscii" "props/prop.ma";
requires maya "2025";
requires -nodeType "aiOptions" "mtoa" "5.4.0";
currentUnit -l centimeter -a degree -t film;
fileInfo "application" "maya";
createNode transform -s -n "persp";
\trename -uid "5E0B0C8A-4A4B-4C3E-9A0A-1B2C3D4E5F60";
\tsetAttr ".v" no;
\tsetAttr ".t" -type "double3" 28 21 28 ;
createNode camera -s -n "perspShape" -p "persp";
\tsetAttr -k off ".v" no;
\tsetAttr ".fl" 34.999999999999993;
\tsetAttr ".imn" -type "string" "persp";
\tsetAttr ".hc" -type "string" "viewSet -p %camera";
createNode mesh -n "boxShape" -p "persp";
\tsetAttr -s 8 ".vt[0:7]"  -0.5 -0.5 0.5 0.5 -0.5 0.5 -0.5 0.5 0.5 0.5 0.5 0.5
\t\t -0.5 0.5 -0.5 0.5 0.5 -0.5 -0.5 -0.5 -0.5 0.5 -0.5 -0.5;
createNode script -n "uiConfigurationScriptNode";
\tsetAttr ".b" -type "string" (
\t\t"// Maya Mel UI Configuration File.\\n"
\t\t+ "if ($gMainPane != \\"\\\") {\\n}\\n");
\tsetAttr ".st" 3;
createNode script -n "sceneConfigurationScriptNode";
\tsetAttr ".b" -type "string" "playbackOptions -min 1 -max 120 -ast 1 -aet 200 ";
\tsetAttr ".st" 6;
select -ne :time1;
\tsetAttr ".o" 1;
select -ne :defaultRenderGlobals;
\tsetAttr ".ren" -type "string" "arnold";
\tsetAttr ".prm" -type "string" "";
lockNode -l 1 ;
connectAttr "persp.msg" ":defaultRenderingList1.r" -na;
relationship "link" ":lightLinker1" ":initialShadingGroup.message" ":defaultLightSet.message";
dataStructure -fmt "raw" -as "name=externalContentTable:string=node:string=key:string=upath";
applyMetadata -fmt "raw" -v "channel\\nname externalContentTable\\nstream\\nname v1.0\\n"
\t\t-scn;
// End of shot.ma
"""


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
        # Emptying a hook runs nothing later.
        self.run_cmd("setAttr", ["defaultRenderGlobals.preMel", ""], {"type": "string"})
        self.assertEqual(self.cmds.values["defaultRenderGlobals.preMel"], "")

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
                               ("diskCache", {"tempDir": "/root"}), ("blendShape", {"export": "/tmp/x.shp"}),
                               ("assembly", {"input": "/root/set.ma"}), ("profiler", {"output": "/root/p.txt"})]:
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

    def write(self, name, text):
        path = os.path.join(self.folder, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(text)

    def test_a_scene_as_maya_writes_it_loads_with_its_reference(self):
        self.write("props/prop.ma", '//Maya ASCII 2025 scene\ncreateNode transform -n "box";\n\tsetAttr ".t" -type "double3" 1 2 3 ;\n')
        self.write("shot.ma", SCENE_AS_MAYA_WRITES_IT)
        self.run_cmd("file", ["shot.ma"], {"open": True, "force": True})
        self.assertEqual(len(self.cmds.ran("file")), 1)

    def test_a_ma_scene_running_any_other_mel_is_refused(self):
        for body in [
            'system("id");\n',
            'createNode transform -n "a";\n\tsetAttr ".tx" `system "id"`;\n',
            'createNode transform -n "a";\n\tsetAttr ".tx" (size(system("id")));\n',
            'createNode transform -n "a";\n\tsetAttr ".tx" (size (system ("id")));\n',
            'createNode transform -n "a";\n\tsetAttr ".tx" $x;\n',
            '{ python("import os"); }\n',
            'requires maya "2025";\npython("import os; os.system(\'id\')");\n',
        ]:
            self.write("evil.ma", SCENE_AS_MAYA_WRITES_IT + body)
            with self.subTest(body=body):
                self.assertEqual(self.refused("file", ["evil.ma"], {"i": True}), "code-attribute")
        self.assertEqual(self.cmds.ran("file"), [])

    def test_maya_ascii_under_another_name_is_read_as_well(self):
        self.write("notes.txt", '//Maya ASCII 2025 scene\npython("import os");\n')
        self.write("cube.obj", 'v 0 0 0\nf 1 1 1\n')
        self.assertEqual(self.refused("file", ["notes.txt"], {"i": True}), "code-attribute")
        self.assertEqual(self.refused("file", ["cube.obj"], {"i": True, "type": "mayaAscii"}), "code-attribute")
        self.run_cmd("file", ["cube.obj"], {"i": True, "type": "OBJ"})
        with open(os.path.join(self.folder, "shot.mb"), "wb") as handle:
            handle.write(b"FOR8\x00\x00\x00\x00python(")
        self.run_cmd("file", ["shot.mb"], {"i": True})

    def test_a_scene_referencing_code_or_a_file_outside_is_refused(self):
        self.write("props/evil.ma", 'select -ne :defaultRenderGlobals;\n\tsetAttr -type "string" ".preMel" "system";\n')
        self.write("a.ma", 'file -rdi 1 -ns "p" -rfn "pRN" -typ "mayaAscii" "props/evil.ma";\n'
                           'file -r -ns "p" -dr 1 -rfn "pRN" -typ "mayaAscii" "props/evil.ma";\n')
        self.write("b.ma", 'file -r -ns "p" -dr 1 -rfn "pRN" -typ "mayaAscii" "/etc/evil.ma";\n')
        self.assertEqual(self.refused("file", ["a.ma"], {"open": True}), "code-attribute")
        self.assertEqual(self.refused("file", ["b.ma"], {"open": True}), "data-folder")

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
