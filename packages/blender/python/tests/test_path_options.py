import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from dcc_blender.path_options import path_option_kind, table  # noqa: E402


class PathOptionKind(unittest.TestCase):
    def test_subtypes_decide_first(self):
        self.assertEqual(path_option_kind("anything", "FILE_PATH"), "file")
        self.assertEqual(path_option_kind("anything", "DIR_PATH"), "folder")
        self.assertEqual(path_option_kind("anything", "FILE_NAME"), "name")

    def test_names_and_descriptions_without_a_subtype(self):
        self.assertEqual(path_option_kind("export_texture_dir", "NONE", "Folder to place texture files in"), "folder")
        self.assertEqual(path_option_kind("path", "NONE", "Subpath used for this slot"), "file")
        self.assertEqual(path_option_kind("file_path", "NONE", "Subpath of the output file"), "file")
        self.assertEqual(path_option_kind("file_suffix", "NONE", "Suffix added to the render images"), "name")
        self.assertEqual(path_option_kind("cache_uri", "NONE", ""), "file")

    def test_paths_inside_blender_or_other_formats_are_not_files(self):
        self.assertIsNone(path_option_kind("data_path", "NONE", "RNA Path to property affected by F-Curve"))
        self.assertIsNone(path_option_kind("path", "NONE", "OpenXR user path"))
        self.assertIsNone(path_option_kind("object_path", "NONE", "Path to the object in the Alembic archive"))
        self.assertIsNone(path_option_kind("name", "NONE", "Name of the object"))
        self.assertIsNone(path_option_kind("vertex_group_object_collisions", "NONE", "used during object collisions"))

    def test_the_generated_table_is_readable(self):
        generated = table()
        self.assertEqual(generated["operators"]["export_scene.gltf"]["export_texture_dir"], "folder")
        self.assertEqual(generated["types"]["Image"]["filepath_raw"], "file")


if __name__ == "__main__":
    unittest.main()
