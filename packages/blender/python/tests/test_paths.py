import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from dcc_blender.paths import DataPath, PathSyntaxError, Step, format_path, parse_path  # noqa: E402


class ParsePath(unittest.TestCase):
    def test_data_block_property(self):
        path = parse_path('objects["Cube"].location')
        self.assertEqual(path.root, "data")
        self.assertEqual(path.steps, (Step("attr", "objects"), Step("key", "Cube"), Step("attr", "location")))

    def test_index_and_nested_keys(self):
        path = parse_path('meshes["Cube"].vertices[0].co')
        self.assertEqual(path.steps[3], Step("index", 0))
        path = parse_path("materials['M'].node_tree.nodes['Principled BSDF'].inputs[\"Base Color\"].default_value")
        self.assertEqual([s.value for s in path.steps], ["materials", "M", "node_tree", "nodes", "Principled BSDF", "inputs", "Base Color", "default_value"])

    def test_context(self):
        path = parse_path("context.active_object")
        self.assertEqual(path, DataPath("context", (Step("attr", "active_object"),)))
        self.assertEqual(parse_path("scenes['Scene'].render.engine").steps[-1], Step("attr", "engine"))

    def test_escapes(self):
        self.assertEqual(parse_path(r'objects["a\"b"]').steps[1].value, 'a"b')
        self.assertEqual(parse_path(r"objects['it\'s']").steps[1].value, "it's")
        self.assertEqual(parse_path(r'objects["back\\slash"]').steps[1].value, "back\\slash")
        self.assertEqual(parse_path(r'objects["\u00e9"]').steps[1].value, "é")
        self.assertEqual(parse_path('objects["Ünïcode ok"]').steps[1].value, "Ünïcode ok")

    def test_negative_index_and_spaces(self):
        self.assertEqual(parse_path('objects[ "Cube" ].location[-1]').steps[-1], Step("index", -1))

    def test_round_trip(self):
        for text in ('objects["Cube"].location', 'meshes["Cube"].vertices[0].co', "context.scene.render", 'objects["a\\"b\\\\c"]'):
            self.assertEqual(parse_path(text).text(), text)
        self.assertEqual(parse_path("objects['Cube']").text(), 'objects["Cube"]')
        self.assertEqual(format_path("data", [Step("attr", "objects"), Step("key", "x\ny")]), 'objects["x\\ny"]')
        self.assertEqual(parse_path(parse_path('objects["x\\ny"]').text()).steps[1].value, "x\ny")


class PathErrors(unittest.TestCase):
    def expect(self, text, position, fragment):
        with self.assertRaises(PathSyntaxError) as caught:
            parse_path(text)
        self.assertEqual(caught.exception.position, position, caught.exception.message)
        self.assertIn(fragment, caught.exception.message)
        self.assertIn(f"position {position}", caught.exception.message)

    def test_unclosed_bracket(self):
        self.expect('objects["Cube"', 14, "']'")

    def test_unclosed_string(self):
        self.expect('objects["Cube', 13, 'closing "')

    def test_bad_key(self):
        self.expect("objects[Cube]", 8, "a quoted name or an integer index")

    def test_underscore_names(self):
        self.expect("objects['Cube'].__class__", 16, "'_'")
        self.expect("__import__", 0, "'_'")

    def test_call_syntax_is_not_a_path(self):
        self.expect("objects.new('x')", 11, "'.', '[' or the end")

    def test_context_alone(self):
        self.expect("context", 7, "context member")

    def test_bad_escape(self):
        self.expect(r'objects["\q"]', 10, "an escape")

    def test_empty_and_non_string(self):
        self.expect("", 0, "a name")
        with self.assertRaises(PathSyntaxError):
            parse_path(None)

    def test_trailing_dot(self):
        self.expect("objects.", 8, "a property or function name")


if __name__ == "__main__":
    unittest.main()
