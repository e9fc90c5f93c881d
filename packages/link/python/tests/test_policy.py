import os
import unittest

from dcc_link import (
    HandlerError,
    PolicyConfigError,
    PolicyRefusal,
    policy_data_folder,
    read_policy_env,
)

DATA = "X_DATA_DIR"
POLICY = "X_POLICY"


class ReadPolicyEnvTest(unittest.TestCase):
    def test_reads_the_folder_and_the_allow_list(self):
        env = {DATA: "/data", POLICY: '{"allow": ["one", "a.*"]}'}
        self.assertEqual(read_policy_env(env, DATA, POLICY), ("/data", ["one", "a.*"]))
        self.assertEqual(read_policy_env({DATA: "/data"}, DATA, POLICY), ("/data", []))
        self.assertEqual(read_policy_env({DATA: "/data", POLICY: "{}"}, DATA, POLICY), ("/data", []))

    def test_names_the_variable_that_is_wrong(self):
        cases = [
            ({}, "set X_DATA_DIR to the absolute path"),
            ({DATA: "/d", POLICY: "{"}, "X_POLICY is not JSON"),
            ({DATA: "/d", POLICY: "[]"}, r'X_POLICY must be \{"allow": \["rule or pattern", \.\.\.\]\}'),
            ({DATA: "/d", POLICY: '{"allow": "one"}'}, "X_POLICY must be"),
            ({DATA: "/d", POLICY: '{"allow": [], "deny": []}'}, "X_POLICY has unknown keys: deny"),
        ]
        for env, message in cases:
            with self.subTest(env=env):
                with self.assertRaisesRegex(PolicyConfigError, message):
                    read_policy_env(env, DATA, POLICY, "rule or pattern")


class PolicyPiecesTest(unittest.TestCase):
    def test_the_data_folder_must_be_absolute(self):
        self.assertEqual(policy_data_folder(os.sep).root, os.path.realpath(os.sep))
        for bad in ("relative", "", None):
            with self.subTest(bad=bad):
                with self.assertRaisesRegex(PolicyConfigError, "must be an absolute path"):
                    policy_data_folder(bad)

    def test_a_refusal_answers_the_call_with_its_rule(self):
        refusal = PolicyRefusal("python-scripts", "script.x is refused")
        self.assertEqual((str(refusal), refusal.rule, refusal.message), ("script.x is refused", "python-scripts", "script.x is refused"))
        error = refusal.handler_error()
        self.assertIsInstance(error, HandlerError)
        self.assertEqual((error.code, error.message, error.data), ("POLICY", "script.x is refused", {"rule": "python-scripts"}))


if __name__ == "__main__":
    unittest.main()
