import base64
import json
import os
import shutil
import struct
import tempfile
import unittest
from unittest import mock

from dcc_link import (
    DATA_DIR_ENV,
    TRANSACTION_METHODS,
    Call,
    CommandSpecError,
    DataFolder,
    HandlerError,
    Transaction,
    TransactionRefusal,
    command_dispatcher,
    encode_png,
    image_result,
    wrote,
)

SPECS = [
    {"name": "scene.add", "signature": "scene.add(name: string): null", "description": "Adds.",
     "args": {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}},
    {"name": "scene.save", "signature": "scene.save(path: string): string", "description": "Saves."},
    {"name": "view.capture", "signature": "view.capture(): Image", "description": "Shows.", "image": True},
]


class Scene:
    """A scene with an undo stack of chunks, as a DCC has."""

    def __init__(self, folder):
        self.folder = folder
        self.objects = []
        self.chunk = None
        self.undone = []

    def handlers(self):
        def add(params, call):
            self.objects.append(params["name"])

        def save(params, call):
            target = self.folder.check("path", params["path"])
            with open(target, "w") as handle:
                handle.write(json.dumps(self.objects))
            return wrote(target)

        return {"scene.add": add, "scene.save": save, "view.capture": lambda p, c: image_result(encode_png(2, 1, b"\xff\x00\x00\x00\xff\x00"))}

    def transaction(self):
        def begin(label):
            self.chunk = (label, len(self.objects))

        def commit(label):
            return len(self.objects) != self.chunk[1]

        def undo(label):
            self.undone.append(label)
            del self.objects[self.chunk[1]:]

        return Transaction(begin, commit, undo)


class ServeTest(unittest.TestCase):
    def setUp(self):
        self.root = os.path.realpath(tempfile.mkdtemp())
        self.addCleanup(shutil.rmtree, self.root)
        self.scene = None
        self.ids = iter(range(1, 1000))

    def dispatcher(self, **options):
        def handlers(folder):
            self.scene = Scene(folder)
            self.tx = self.scene.transaction()
            return self.scene.handlers()

        with mock.patch.dict(os.environ, {DATA_DIR_ENV: self.root}):
            built = command_dispatcher(SPECS, handlers, data_folder=DATA_DIR_ENV, **options)
        return built

    def call(self, dispatcher, method, params=None):
        return dispatcher.run(Call(next(self.ids), method, params))

    def test_handlers_get_the_data_folder_and_refusals_become_policy_answers(self):
        dispatcher = self.dispatcher()
        self.assertEqual(self.scene.folder.root, self.root)
        reply = self.call(dispatcher, "scene.save", {"path": "../outside.json"})
        self.assertEqual(reply["error"]["code"], "POLICY")
        self.assertEqual(reply["error"]["data"], {"rule": "data-folder", "argument": "path"})
        self.assertIn("refused (rule 'data-folder')", reply["error"]["message"])
        self.assertEqual(self.call(dispatcher, "scene.save", {"path": "a.json"})["result"], "a.json")

    def test_the_transaction_methods_are_registered_beside_the_specs(self):
        dispatcher = command_dispatcher(SPECS, Scene(None).handlers(), transaction=Scene(None).transaction())
        self.assertEqual(
            dispatcher.names(), sorted([*TRANSACTION_METHODS, "scene.add", "scene.save", "view.capture"])
        )

    def test_a_missing_data_folder_variable_stops_the_start_with_its_name(self):
        with mock.patch.dict(os.environ, {DATA_DIR_ENV: "relative/path"}):
            with self.assertRaises(SystemExit) as caught:
                command_dispatcher(SPECS, lambda folder: {}, data_folder=DATA_DIR_ENV)
        self.assertIn(DATA_DIR_ENV, str(caught.exception.code))

    def test_a_relative_spec_path_is_taken_from_the_calling_script(self):
        with open(os.path.join(self.root, "commands.json"), "w") as handle:
            json.dump(SPECS[:1], handle)
        scope = {"__file__": os.path.join(self.root, "startup.py"), "command_dispatcher": command_dispatcher}
        exec("built = command_dispatcher('commands.json', {'scene.add': lambda p, c: None})", scope)
        self.assertEqual(scope["built"].names(), ["scene.add"])
        with self.assertRaises(CommandSpecError):
            exec("command_dispatcher('commands.json', {})", scope)


class TransactionTest(unittest.TestCase):
    def setUp(self):
        self.root = os.path.realpath(tempfile.mkdtemp())
        self.addCleanup(shutil.rmtree, self.root)
        self.scene = Scene(DataFolder(self.root))
        self.dispatcher = command_dispatcher(
            SPECS, self.scene.handlers(), transaction=self.scene.transaction(), data_folder=DataFolder(self.root)
        )
        self.ids = iter(range(1, 1000))

    def call(self, method, params=None):
        reply = self.dispatcher.run(Call(next(self.ids), method, params))
        self.assertEqual(reply["type"], "result", reply)
        return reply["result"]

    def test_a_commit_names_the_undo_step_and_lists_files_relative_to_the_data_folder(self):
        begin, end = TRANSACTION_METHODS
        self.call(begin, {"label": "dcc_execute: two\nlines"})
        self.call("scene.add", {"name": "a"})
        self.call("scene.save", {"path": "out/../a.json"})
        self.call("scene.save", {"path": os.path.join(self.root, "a.json")})
        report = self.call(end, {"rollback": False})
        self.assertEqual(report, {"rolledBack": False, "undoStep": "dcc_execute: two lines", "filesWritten": ["a.json"]})

    def test_a_rollback_undoes_and_an_empty_script_has_nothing_to_undo(self):
        begin, end = TRANSACTION_METHODS
        self.call(begin, {"label": "s"})
        self.call("scene.add", {"name": "a"})
        self.assertEqual(self.call(end, {"rollback": True}), {"rolledBack": True})
        self.assertEqual(self.scene.objects, [])
        self.call(begin, {"label": "t"})
        report = self.call(end, {"rollback": False})
        self.assertEqual(report["reason"], "nothing_to_undo")
        self.assertFalse(report["rolledBack"])

    def test_an_end_without_begin_or_a_refused_undo_is_reported_not_raised(self):
        begin, end = TRANSACTION_METHODS
        self.assertEqual(self.call(end, {"rollback": True})["reason"], "failed")

        def refuse(label):
            raise TransactionRefusal("history_cut", "a file was opened")

        tx = Transaction(lambda label: None, lambda label: True, refuse)
        tx.begin({"label": "x"}, None)
        self.assertEqual(tx.end({"rollback": True}, None), {"rolledBack": False, "reason": "history_cut", "detail": "a file was opened"})
        tx.begin({"label": "x"}, None)
        tx._undo = lambda label: 1 / 0
        self.assertEqual(tx.end({"rollback": True}, None)["detail"], "ZeroDivisionError: division by zero")


class ImageTest(unittest.TestCase):
    def test_a_png_answer_carries_its_size_and_bytes(self):
        png = encode_png(3, 2, bytes(18))
        answer = image_result(png)
        self.assertEqual((answer["mimeType"], answer["width"], answer["height"]), ("image/png", 3, 2))
        self.assertEqual(base64.b64decode(answer["data"]), png)
        self.assertEqual(struct.unpack(">II", png[16:24]), (3, 2))

    def test_other_bytes_or_a_jpeg_without_size_are_refused(self):
        for data, size in ((b"GIF89a", {}), (b"\xff\xd8\xff", {}), ("text", {}), (encode_png(1, 1, bytes(3)), {"width": 0})):
            with self.assertRaises(HandlerError) as caught:
                image_result(data, **size)
            self.assertEqual(caught.exception.code, "INVALID_IMAGE")
        self.assertEqual(image_result(b"\xff\xd8\xff", 4, 5)["mimeType"], "image/jpeg")


if __name__ == "__main__":
    unittest.main()
