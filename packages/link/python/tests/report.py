"""Runs the Python unit tests and prints one JSON record per test, for the vitest suite that
counts them (``src/python-unit.test.ts``): ``[{"id", "outcome", "detail"}]``."""

import json
import os
import sys
import unittest


class Collect(unittest.TestResult):
    def __init__(self):
        super().__init__()
        self.records = {}

    def _record(self, test):
        return self.records.setdefault(test.id(), {"id": test.id(), "outcome": "passed", "detail": ""})

    def _mark(self, test, outcome, err):
        record = self._record(test)
        record["outcome"] = outcome
        record["detail"] += self._exc_info_to_string(err, test)

    def startTest(self, test):
        super().startTest(test)
        self._record(test)

    def addError(self, test, err):
        super().addError(test, err)
        self._mark(test, "error", err)

    def addFailure(self, test, err):
        super().addFailure(test, err)
        self._mark(test, "failed", err)

    def addSubTest(self, test, subtest, err):
        super().addSubTest(test, subtest, err)
        if err is not None:
            self._mark(test, "failed", err)

    def addSkip(self, test, reason):
        super().addSkip(test, reason)
        self._record(test)["outcome"] = "skipped"

    def addUnexpectedSuccess(self, test):
        super().addUnexpectedSuccess(test)
        self._record(test)["outcome"] = "failed"


if __name__ == "__main__":
    # The folder to discover in: this one by default, or another package's tests folder.
    here = os.path.abspath(sys.argv[1]) if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
    suite = unittest.defaultTestLoader.discover(here, top_level_dir=here)
    result = Collect()
    suite.run(result)
    json.dump(list(result.records.values()), sys.stdout)
