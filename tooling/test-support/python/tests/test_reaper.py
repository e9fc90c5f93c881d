"""The reaper's ``end_all`` against a tree that changes while it is ended (no processes: the
look at the tree and the signals are replaced by a script of what each look finds)."""

import os
import signal
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import reaper  # noqa: E402


class EndAll(unittest.TestCase):
    def run_end_all(self, looks, grace):
        """``end_all`` where each look at the tree finds the next of ``looks``; the signals sent."""
        sent = []
        remaining = list(looks)
        saved = (reaper.live_descendants, reaper.reap, reaper.os.kill, reaper.time.sleep)
        reaper.live_descendants = lambda root: remaining.pop(0) if remaining else []
        reaper.reap = lambda main_pid: None
        reaper.os.kill = lambda pid, sig: sent.append((pid, sig))
        reaper.time.sleep = lambda seconds: None
        try:
            reaper.end_all(grace, 1)
        finally:
            reaper.live_descendants, reaper.reap, reaper.os.kill, reaper.time.sleep = saved
        return sent

    def test_a_process_that_appears_after_the_first_look_is_ended_too(self):
        sent = self.run_end_all([[10], [10, 11], []], grace=60.0)
        self.assertIn((10, signal.SIGTERM), sent)
        self.assertIn((11, signal.SIGTERM), sent)
        # SIGTERM once each, within the grace.
        self.assertEqual(len(sent), 2)

    def test_a_process_that_appears_after_the_kill_is_killed_too(self):
        sent = self.run_end_all([[10], [10], [10, 12], []], grace=0.0)
        self.assertIn((12, signal.SIGKILL), sent)
        self.assertTrue(all(sig == signal.SIGKILL for _, sig in sent))

    def test_gives_up_after_the_grace_and_five_seconds(self):
        clock = [0.0]
        saved = reaper.time.monotonic
        reaper.time.monotonic = lambda: clock[0]

        def forever(root):
            clock[0] += 1.0
            return [10]

        sent = []
        saved_look, saved_kill, saved_sleep, saved_reap = (
            reaper.live_descendants,
            reaper.os.kill,
            reaper.time.sleep,
            reaper.reap,
        )
        reaper.live_descendants = forever
        reaper.os.kill = lambda pid, sig: sent.append((pid, sig))
        reaper.time.sleep = lambda seconds: None
        reaper.reap = lambda main_pid: None
        try:
            reaper.end_all(2.0, 1)
        finally:
            reaper.time.monotonic = saved
            reaper.live_descendants, reaper.os.kill, reaper.time.sleep, reaper.reap = (
                saved_look,
                saved_kill,
                saved_sleep,
                saved_reap,
            )
        self.assertEqual(sent[0], (10, signal.SIGTERM))
        self.assertIn((10, signal.SIGKILL), sent)
        self.assertLess(len(sent), 10)


if __name__ == "__main__":
    unittest.main()
