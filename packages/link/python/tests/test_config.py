import os
import stat
import tempfile
import unittest

from dcc_link.auth import token_matches
from dcc_link.config import LinkConfig
from dcc_link.errors import LinkConfigError
from dcc_link.session import MARKER, remove_session_dir

TOKEN = "t" * 43


class TokenTest(unittest.TestCase):
    def test_only_the_exact_token_matches(self):
        self.assertTrue(token_matches(TOKEN, TOKEN))
        self.assertFalse(token_matches(TOKEN[:-1], TOKEN))
        self.assertFalse(token_matches(TOKEN + "x", TOKEN))
        self.assertFalse(token_matches(None, TOKEN))
        self.assertFalse(token_matches(123, TOKEN))
        self.assertFalse(token_matches("é" * 43, TOKEN))


class ConfigTest(unittest.TestCase):
    def test_from_env_removes_the_token_variable(self):
        env = {"DCC_LINK_TOKEN": TOKEN, "DCC_LINK_SOCKET": "/tmp/x.sock", "DCC_LINK_WATCHDOG_FD": "3"}
        config = LinkConfig.from_env(env)
        self.assertEqual(config.token, TOKEN)
        self.assertEqual(config.socket_path, "/tmp/x.sock")
        self.assertEqual(config.watchdog_fd, 3)
        self.assertNotIn("DCC_LINK_TOKEN", env)

    def test_a_token_file_is_read_then_deleted(self):
        with tempfile.TemporaryDirectory() as folder:
            path = os.path.join(folder, "token")
            with open(path, "w") as handle:
                handle.write(TOKEN + "\n")
            config = LinkConfig.from_env({"DCC_LINK_TOKEN_FILE": path, "DCC_LINK_TCP_PORT": "0"})
            self.assertEqual(config.token, TOKEN)
            self.assertEqual(config.tcp_port, 0)
            self.assertFalse(os.path.exists(path))

    def test_no_token_or_a_short_one_is_refused(self):
        with self.assertRaises(LinkConfigError):
            LinkConfig.from_env({"DCC_LINK_SOCKET": "/tmp/x.sock"})
        with self.assertRaises(LinkConfigError):
            LinkConfig(token="short", socket_path="/tmp/x.sock")

    def test_exactly_one_endpoint(self):
        with self.assertRaises(LinkConfigError):
            LinkConfig(token=TOKEN)
        with self.assertRaises(LinkConfigError):
            LinkConfig(token=TOKEN, socket_path="/tmp/x.sock", tcp_port=0)

    def test_never_a_non_loopback_address(self):
        for host in ("0.0.0.0", "192.168.1.2", "::", "example.com", ""):
            with self.subTest(host=host), self.assertRaises(LinkConfigError):
                LinkConfig(token=TOKEN, tcp_port=0, tcp_host=host)
        LinkConfig(token=TOKEN, tcp_port=0, tcp_host="127.0.0.1")
        LinkConfig(token=TOKEN, tcp_port=0, tcp_host="::1")


class SessionTest(unittest.TestCase):
    def test_a_folder_is_removed_only_with_the_marker(self):
        with tempfile.TemporaryDirectory() as parent:
            plain = os.path.join(parent, "plain")
            os.mkdir(plain)
            remove_session_dir(plain)
            self.assertTrue(os.path.isdir(plain))
            marked = os.path.join(parent, "marked")
            os.makedirs(os.path.join(marked, "tmp"))
            open(os.path.join(marked, MARKER), "w").close()
            remove_session_dir(marked)
            self.assertFalse(os.path.exists(marked))


class ListenerTest(unittest.TestCase):
    def test_a_unix_socket_is_0600_and_replaces_a_stale_one(self):
        from dcc_link.listen import open_listener

        with tempfile.TemporaryDirectory() as folder:
            path = os.path.join(folder, "link.sock")
            config = LinkConfig(token=TOKEN, socket_path=path)
            first = open_listener(config)
            first.close()  # a dead predecessor leaves its socket file behind
            second = open_listener(config)
            try:
                self.assertEqual(stat.S_IMODE(os.stat(path).st_mode), 0o600)
            finally:
                second.close()

    def test_a_regular_file_at_the_socket_path_is_not_replaced(self):
        from dcc_link.listen import open_listener

        with tempfile.TemporaryDirectory() as folder:
            path = os.path.join(folder, "link.sock")
            open(path, "w").close()
            with self.assertRaises(LinkConfigError):
                open_listener(LinkConfig(token=TOKEN, socket_path=path))
            self.assertTrue(os.path.isfile(path))


if __name__ == "__main__":
    unittest.main()
