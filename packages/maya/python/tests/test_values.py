"""Maya's return values made plain JSON, and Maya's errors made codes."""

import unittest

import _paths  # noqa: F401
from dcc_maya.commands import error_code
from dcc_maya.values import to_plain


class Vector:
    def __init__(self, x, y, z):
        self.x, self.y, self.z = x, y, z


class Matrix:
    def __len__(self):
        return 4

    def __getitem__(self, index):
        if index >= 4:
            raise IndexError(index)
        return float(index)


class ValuesTest(unittest.TestCase):
    def test_plain_values(self):
        self.assertEqual(to_plain([("a", 1), (1.5, 2.0, 3.0)]), [["a", 1], [1.5, 2.0, 3.0]])
        self.assertEqual(to_plain(Vector(1, 2, 3)), [1, 2, 3])
        self.assertEqual(to_plain(Matrix()), [0.0, 1.0, 2.0, 3.0])
        self.assertEqual(to_plain({1: float("nan")}), {"1": None})
        self.assertEqual(to_plain(object.__new__(type("Opaque", (), {"__str__": lambda self: "opaque"}))), "opaque")

    def test_error_codes(self):
        self.assertEqual(error_code(RuntimeError("No object matches name: pSphere9")), "NO_OBJECT")
        self.assertEqual(error_code(TypeError("Invalid flag 'foo'")), "INVALID_FLAG")
        self.assertEqual(error_code(TypeError("Invalid argument 1, '5'")), "INVALID_ARGUMENT")
        self.assertEqual(error_code(RuntimeError("The attribute 'a.tx' is locked")), "INVALID_STATE")
        self.assertEqual(error_code(RuntimeError("Maya went wrong")), "MAYA_ERROR")


if __name__ == "__main__":
    unittest.main()
