import json
import os
import shutil
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from dcc_blender.policy import Policy, PolicyConfigError, PolicyRefusal  # noqa: E402


class PolicyTestCase(unittest.TestCase):
    def setUp(self):
        self.data = os.path.realpath(tempfile.mkdtemp(prefix="dcc-policy-"))
        self.outside = os.path.realpath(tempfile.mkdtemp(prefix="dcc-outside-"))
        self.policy = Policy(self.data)

    def tearDown(self):
        shutil.rmtree(self.data, ignore_errors=True)
        shutil.rmtree(self.outside, ignore_errors=True)

    def refused(self, rule, function, *args):
        with self.assertRaises(PolicyRefusal) as caught:
            function(*args)
        self.assertEqual(caught.exception.rule, rule, caught.exception.message)
        return caught.exception



class Names(PolicyTestCase):
    def test_control_characters_refused(self):
        for name in ("M\nmap_Kd\t/x.png", "a\tb", "a\rb", "a\x00b", "a\x1bb", "a\x7fb"):
            error = self.refused("name-characters", self.policy.check_name, "materials['M'].name", name)
            self.assertIn("control characters", error.message)
        self.policy.check_name("x", "Material.001 – ünïcode ok")
        Policy(self.data, ["name-characters"]).check_name("x", "a\nb")

class Operators(PolicyTestCase):
    def test_refused_by_name(self):
        cases = {
            "script.python_file_run": "python-scripts",
            "script.reload": "python-scripts",
            "text.run_script": "python-scripts",
            "console.execute": "python-scripts",
            "wm.context_set_value": "context-exec",
            "wm.properties_edit": "context-exec",
            "render.preset_add": "preset-files",
            "preferences.addon_install": "preferences",
            "preferences.addon_enable": "preferences",
            "wm.save_userpref": "preferences",
            "wm.read_userpref": "preferences",
            "wm.url_open": "external-apps",
            "wm.url_open_preset": "external-apps",
            "wm.quit_blender": "quit",
            "ui.view_drop": "crashes",
            "scene.freestyle_module_open": "freestyle-python",
        }
        for operator, rule in cases.items():
            error = self.refused(rule, self.policy.check_operator, operator)
            self.assertIn(operator, error.message)
            self.assertIn(rule, error.message)

    def test_allowed(self):
        for operator in ("mesh.primitive_cube_add", "wm.open_mainfile", "wm.save_as_mainfile", "render.render", "text.new"):
            self.policy.check_operator(operator)

    def test_lifted_by_rule_or_pattern(self):
        Policy(self.data, ["python-scripts"]).check_operator("script.reload")
        Policy(self.data, ["script.reload"]).check_operator("script.reload")
        lifted = Policy(self.data, ["wm.url_*"])
        lifted.check_operator("wm.url_open")
        self.refused("external-apps", lifted.check_operator, "wm.doc_view")

    def test_unknown_rule_is_a_config_error(self):
        with self.assertRaises(PolicyConfigError):
            Policy(self.data, ["pyhton-scripts"])

    def test_unpack(self):
        self.policy.check_unpack("file.unpack_all", "USE_LOCAL")
        self.refused("unpack-external", self.policy.check_unpack, "file.unpack_all", "WRITE_ORIGINAL")


class Paths(PolicyTestCase):
    def test_inside(self):
        self.assertEqual(self.policy.check_path("filepath", os.path.join(self.data, "a.blend")), os.path.join(self.data, "a.blend"))
        self.assertEqual(self.policy.check_path("filepath", "sub/a.blend"), os.path.join(self.data, "sub", "a.blend"))
        self.assertEqual(self.policy.check_path("filepath", "//renders/"), os.path.join(self.data, "renders") + os.sep)

    def test_outside(self):
        error = self.refused("data-folder", self.policy.check_path, "filepath", "/tmp/x.blend")
        self.assertIn("filepath", error.message)
        self.assertIn("/tmp/x.blend", error.message)
        self.refused("data-folder", self.policy.check_path, "filepath", "../x.blend")
        self.refused("data-folder", self.policy.check_path, "filepath", "//../x.blend")
        self.refused("data-folder", self.policy.check_path, "directory", self.data + "-sibling", "DIR_PATH")

    def test_a_file_path_naming_a_folder_is_refused(self):
        os.mkdir(os.path.join(self.data, "renders"))
        for value in (".", "renders", self.data, "renders/.."):
            error = self.refused("data-folder", self.policy.check_path, "filepath", value)
            self.assertIn("not a file", error.message)
        # A folder meant as one, and a new file in it, are fine.
        self.assertEqual(self.policy.check_path("filepath", "renders/"), os.path.join(self.data, "renders") + os.sep)
        self.assertEqual(self.policy.check_path("directory", "renders", "DIR_PATH"), os.path.join(self.data, "renders"))
        self.policy.check_path("filepath", "renders/a.blend")

    def test_symlink_out_is_refused(self):
        os.symlink(self.outside, os.path.join(self.data, "link"))
        self.refused("data-folder", self.policy.check_path, "filepath", "link/x.blend")
        os.symlink(self.data, os.path.join(self.outside, "in"))
        self.policy.check_path("filepath", os.path.join(self.outside, "in", "x.blend"))

    def test_file_names(self):
        self.assertEqual(self.policy.check_path("filename", "a.blend", "FILE_NAME"), "a.blend")
        self.refused("data-folder", self.policy.check_path, "filename", "../a.blend", "FILE_NAME")
        self.refused("data-folder", self.policy.check_path, "filename", "sub/a.blend", "FILE_NAME")

    def test_lifted(self):
        Policy(self.data, ["data-folder"]).check_path("filepath", "/tmp/x")


class Drivers(PolicyTestCase):
    def test_simple_expressions(self):
        for expression in ("frame / 10", "sin(frame * pi) + var", "2.5e-3*x if x > 0 else -x", "clamp(var, 0, 1)"):
            self.policy.check_driver_expression(expression, ["var", "x"])

    def test_python_refused(self):
        for expression in ("exec('x')", "__import__('os')", "bpy.data", "var.real", "[1]", "open"):
            self.refused("driver-expression", self.policy.check_driver_expression, expression, ["var"])

    def test_lifted(self):
        Policy(self.data, ["driver-expression"]).check_driver_expression("bpy.data", [])


class FromEnv(PolicyTestCase):
    def test_reads_both(self):
        policy = Policy.from_env({"DCC_BLENDER_DATA_DIR": self.data, "DCC_BLENDER_POLICY": json.dumps({"allow": ["quit"]})})
        self.assertEqual(policy.data_dir, self.data)
        policy.check_operator("wm.quit_blender")

    def test_errors(self):
        for env in ({}, {"DCC_BLENDER_DATA_DIR": "relative"}, {"DCC_BLENDER_DATA_DIR": self.data, "DCC_BLENDER_POLICY": "{"},
                    {"DCC_BLENDER_DATA_DIR": self.data, "DCC_BLENDER_POLICY": '{"deny": []}'}):
            with self.assertRaises(PolicyConfigError):
                Policy.from_env(env)

    def test_relative_result(self):
        self.assertEqual(self.policy.relative(os.path.join(self.data, "renders", "f.png")), os.path.join("renders", "f.png"))


if __name__ == "__main__":
    unittest.main()
