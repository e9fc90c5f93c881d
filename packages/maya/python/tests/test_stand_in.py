"""The stand-in ``maya`` package is as strict as the catalog data: the tests that use it can
only pass with calls a real Maya would accept."""

import threading
import unittest

import _paths  # noqa: F401
from maya import _state
import maya.cmds as cmds
import maya.standalone
import maya.utils


class StandInTest(unittest.TestCase):
    def setUp(self):
        maya.standalone.initialize(name="python")

    def test_unknown_commands_do_not_exist(self):
        with self.assertRaises(AttributeError):
            cmds.notAMayaCommand
        self.assertTrue(callable(cmds.polySphere))

    def test_flags_and_types_follow_the_catalog(self):
        self.assertIsNone(cmds.polySphere(radius=2, name="ball", subdivisionsX=8))
        with self.assertRaisesRegex(TypeError, "Invalid flag 'position'"):
            cmds.polySphere(position=[1, 2, 3])
        with self.assertRaisesRegex(TypeError, "radius"):
            cmds.polySphere(radius="big")
        with self.assertRaisesRegex(TypeError, "axis"):
            cmds.polySphere(axis=[0, 1])
        self.assertIsNone(cmds.polySphere("pSphere1", query=True, radius=True))
        with self.assertRaises(TypeError):
            cmds.nodeType("a", "b")

    def test_commands_raise_off_the_main_thread(self):
        caught = []

        def worker():
            try:
                cmds.ls()
            except RuntimeError as error:
                caught.append(str(error))

        thread = threading.Thread(target=worker)
        thread.start()
        thread.join(10)
        self.assertIn("main thread", caught[0])

    def test_commands_need_initialize_under_mayapy(self):
        maya.standalone.uninitialize()
        with self.assertRaisesRegex(RuntimeError, "initialize"):
            cmds.ls()

    def test_main_thread_hand_over_needs_an_interactive_maya(self):
        self.assertEqual(_state.mode, "standalone")
        with self.assertRaisesRegex(RuntimeError, "interactive"):
            maya.utils.executeInMainThreadWithResult(lambda: 1)

    def test_the_idle_queue_runs_work_on_the_main_thread(self):
        _state.mode = "interactive"
        try:
            results = []

            def worker():
                results.append(maya.utils.executeInMainThreadWithResult(
                    lambda: threading.current_thread() is threading.main_thread()))

            thread = threading.Thread(target=worker)
            thread.start()
            while thread.is_alive():
                _state.run_idle(0.05)
            self.assertEqual(results, [True])
        finally:
            _state.mode = "standalone"


if __name__ == "__main__":
    unittest.main()
