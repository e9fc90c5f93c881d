import os
import subprocess
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from dcc_blender.gl_probe import INSTALL, egl_problem, unavailable_message  # noqa: E402

PYTHON_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@unittest.skipUnless(sys.platform.startswith("linux"), "EGL is probed on Linux only")
class EglProbe(unittest.TestCase):
    def test_a_missing_library_is_named(self):
        problem = egl_problem("libEGL-dcc-missing.so.1")
        self.assertIsNotNone(problem)
        self.assertIn("libEGL-dcc-missing.so.1 could not be loaded", problem)

    def test_no_driver_is_a_problem(self):
        # libglvnd reads its vendor files when the library loads: a fresh interpreter, pointed at
        # none. Where libEGL.so.1 itself is missing, that is the problem named instead.
        env = dict(os.environ, __EGL_VENDOR_LIBRARY_FILENAMES="/nonexistent/dcc-no-vendor.json")
        code = "import sys; from dcc_blender.gl_probe import egl_problem; print(egl_problem())"
        out = subprocess.run(
            [sys.executable, "-c", code], cwd=PYTHON_DIR, env=env, capture_output=True, text=True, timeout=60
        )
        self.assertEqual(out.returncode, 0, out.stderr)
        self.assertRegex(out.stdout, r"found no EGL driver|could not be loaded")

    def test_the_message_says_what_to_install(self):
        message = unavailable_message("viewport.screenshot", "libEGL.so.1 could not be loaded (x)")
        self.assertIn("libEGL.so.1 could not be loaded (x)", message)
        self.assertIn("apt-get install libegl1 libegl-mesa0", message)
        self.assertEqual(INSTALL, ("libegl1", "libegl-mesa0"))


if __name__ == "__main__":
    unittest.main()
