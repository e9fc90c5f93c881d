import os
import shutil
import stat
import tempfile
import unittest

from dcc_link import DATA_FOLDER_RULE, DataFolder, DataFolderRefusal, write_connection_file


class DataFolderTest(unittest.TestCase):
    def setUp(self):
        self.base = tempfile.mkdtemp(prefix="dcc-link-data-")
        self.addCleanup(shutil.rmtree, self.base)
        self.root = os.path.join(self.base, "data")
        os.mkdir(self.root)
        self.folder = DataFolder(self.root)

    def refused(self, value, argument="path"):
        with self.assertRaises(DataFolderRefusal) as caught:
            self.folder.check(argument, value)
        refusal = caught.exception
        self.assertEqual(refusal.rule, DATA_FOLDER_RULE)
        self.assertIn(argument, refusal.message)
        self.assertIn(repr(value), refusal.message)
        return refusal

    def test_relative_paths_start_in_the_data_folder(self):
        self.assertEqual(self.folder.check("path", "a/b.txt"), os.path.join(self.root, "a", "b.txt"))
        self.assertEqual(self.folder.check("path", "a/../b.txt"), os.path.join(self.root, "b.txt"))
        self.assertEqual(self.folder.check("path", "."), self.root)

    def test_an_absolute_path_inside_is_kept(self):
        inside = os.path.join(self.root, "x.txt")
        self.assertEqual(self.folder.check("path", inside), inside)

    def test_dot_dot_out_of_the_folder_is_refused_naming_where_it_resolves(self):
        refusal = self.refused("../secret.txt")
        self.assertIn(os.path.join(self.base, "secret.txt"), refusal.message)
        self.refused("a/../../secret.txt")

    def test_an_absolute_path_outside_is_refused(self):
        self.refused("/etc/passwd", argument="filepath")
        self.refused(self.root + "-other/x")

    def test_a_symbolic_link_out_of_the_folder_is_refused(self):
        outside = os.path.join(self.base, "outside")
        os.mkdir(outside)
        os.symlink(outside, os.path.join(self.root, "link"))
        refusal = self.refused("link/x.txt")
        self.assertIn(os.path.join(outside, "x.txt"), refusal.message)

    def test_empty_and_non_string_values_are_refused(self):
        self.refused("")
        self.refused("a\0b")
        with self.assertRaises(DataFolderRefusal):
            self.folder.check("path", 3)

    def test_a_file_name_must_not_name_a_folder(self):
        self.assertEqual(self.folder.check_name("filename", "x.png"), "x.png")
        for value in ("a/x.png", "..", ".", ""):
            with self.assertRaises(DataFolderRefusal):
                self.folder.check_name("filename", value)

    def test_the_root_must_be_absolute(self):
        with self.assertRaises(ValueError):
            DataFolder("relative/data")

    def test_relative_gives_results_from_the_root(self):
        self.assertEqual(self.folder.relative(os.path.join(self.root, "a", "b")), os.path.join("a", "b"))


class ConnectionFileTest(unittest.TestCase):
    def test_written_private_and_never_over_an_existing_file(self):
        folder = tempfile.mkdtemp(prefix="dcc-link-conn-")
        self.addCleanup(shutil.rmtree, folder)
        path = write_connection_file(folder, "/s.sock", "tok", pid=7)
        self.assertEqual(stat.S_IMODE(os.stat(path).st_mode), 0o600)
        with open(path, encoding="utf-8") as handle:
            self.assertEqual(handle.read(), '{"socket": "/s.sock", "token": "tok", "pid": 7}')
        with self.assertRaises(FileExistsError):
            write_connection_file(folder, "/s.sock", "tok")
        # Written under another name and linked into place: nothing partial is left beside it.
        self.assertEqual(os.listdir(folder), ["connection.json"])
