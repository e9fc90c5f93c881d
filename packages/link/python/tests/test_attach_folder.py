import json
import os
import shutil
import stat
import tempfile
import unittest

from dcc_link import AttachFolder, launched_by_link


class AttachFolderTest(unittest.TestCase):
    def setUp(self):
        self.base = tempfile.mkdtemp(prefix="dcc-link-attach-")
        self.addCleanup(shutil.rmtree, self.base, True)

    def test_a_new_private_folder_holds_the_connection_file(self):
        attach = AttachFolder("X_LINK_DIR", "dcc-x-", {"XDG_RUNTIME_DIR": self.base})
        self.assertEqual(os.path.dirname(attach.folder), self.base)
        self.assertTrue(os.path.basename(attach.folder).startswith("dcc-x-"))
        self.assertEqual(stat.S_IMODE(os.stat(attach.folder).st_mode), 0o700)
        with open(attach.connection_file, encoding="utf-8") as handle:
            written = json.load(handle)
        self.assertEqual(written["socket"], os.path.join(attach.folder, "link.sock"))
        self.assertEqual((written["token"], written["pid"]), (attach.config.token, os.getpid()))
        self.assertEqual(attach.config.socket_path, written["socket"])
        attach.remove()
        self.assertFalse(os.path.exists(attach.folder))

    def test_a_chosen_folder_is_reused_once_stale_files_are_removed(self):
        chosen = os.path.join(self.base, "chosen")
        os.mkdir(chosen, 0o700)
        for name in ("connection.json", "link.sock"):
            with open(os.path.join(chosen, name), "w", encoding="utf-8") as handle:
                handle.write("stale")
        attach = AttachFolder("X_LINK_DIR", "dcc-x-", {"X_LINK_DIR": chosen})
        self.assertEqual(attach.folder, chosen)
        self.assertFalse(os.path.exists(os.path.join(chosen, "link.sock")))
        with open(attach.connection_file, encoding="utf-8") as handle:
            self.assertEqual(json.load(handle)["token"], attach.config.token)

    def test_a_chosen_folder_others_can_open_is_refused_naming_the_variable(self):
        chosen = os.path.join(self.base, "open")
        os.mkdir(chosen)
        os.chmod(chosen, 0o755)
        with self.assertRaisesRegex(RuntimeError, "X_LINK_DIR .*open must be a folder of this user"):
            AttachFolder("X_LINK_DIR", "dcc-x-", {"X_LINK_DIR": chosen})

    def test_launched_by_link_reads_the_link_variables(self):
        self.assertTrue(launched_by_link({"DCC_LINK_SOCKET": "/s"}))
        self.assertTrue(launched_by_link({"DCC_LINK_TCP_PORT": "1"}))
        self.assertFalse(launched_by_link({}))


if __name__ == "__main__":
    unittest.main()
