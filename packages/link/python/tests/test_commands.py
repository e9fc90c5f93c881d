import json
import os
import shutil
import tempfile
import unittest

from dcc_link import (
    Call,
    CommandSpecError,
    Dispatcher,
    HandlerError,
    check_args,
    load_command_specs,
    register_commands,
)

SPEC = {
    "name": "scene.create",
    "signature": "scene.create(name: string, size?: number): string",
    "description": "Creates an object.",
    "args": {
        "type": "object",
        "properties": {
            "name": {"type": "string"},
            "size": {"type": "number", "minimum": 0},
            "kind": {"enum": ["cube", "ball"]},
            "tags": {"type": "array", "items": {"type": "string"}},
        },
        "required": ["name"],
        "additionalProperties": False,
    },
}


class CheckArgsTest(unittest.TestCase):
    def invalid(self, params, *parts):
        with self.assertRaises(HandlerError) as caught:
            check_args(SPEC, params)
        self.assertEqual(caught.exception.code, "INVALID_ARGS")
        for part in parts:
            self.assertIn(part, caught.exception.message)
        return caught.exception

    def test_valid_args_pass_and_none_counts_as_no_args(self):
        self.assertEqual(check_args(SPEC, {"name": "a", "size": 2.5}), {"name": "a", "size": 2.5})
        self.assertEqual(check_args({"name": "x", "signature": "s", "description": "d"}, None), {})

    def test_each_problem_names_the_command_and_the_argument(self):
        self.invalid({}, "scene.create", "args.name is required")
        self.invalid({"name": 3}, "args.name must be string", "integer")
        self.invalid({"name": "a", "size": True}, "args.size must be number", "boolean")
        self.invalid({"name": "a", "size": -1}, "args.size must be at least 0")
        self.invalid({"name": "a", "kind": "cone"}, "args.kind must be one of", '"cube"')
        self.invalid({"name": "a", "tags": ["x", 1]}, "args.tags[1] must be string")
        error = self.invalid({"name": "a", "colour": 1}, "args.colour is not an argument", "name, size")
        self.assertEqual(error.data, {"argument": "args.colour"})
        self.invalid([1], "takes one object of keyword arguments")


class RegisterCommandsTest(unittest.TestCase):
    def test_each_spec_is_bound_to_its_handler_behind_the_args_check(self):
        dispatcher = Dispatcher()
        seen = []
        register_commands(
            dispatcher,
            [SPEC, {"name": "scene.list", "signature": "s", "description": "d", "method": "list"}],
            {"scene.create": lambda params, call: seen.append(params) or params["name"],
             "scene.list": lambda params, call: ["a"]},
        )
        self.assertEqual(dispatcher.names(), ["list", "scene.create"])
        reply = dispatcher.run(Call(1, "scene.create", {"name": "cube"}))
        self.assertEqual(reply["result"], "cube")
        reply = dispatcher.run(Call(2, "scene.create", {"size": 1}))
        self.assertEqual(reply["error"]["code"], "INVALID_ARGS")
        self.assertEqual(seen, [{"name": "cube"}])
        self.assertEqual(dispatcher.run(Call(3, "list", None))["result"], ["a"])

    def test_a_wrap_sees_every_handler(self):
        dispatcher = Dispatcher()
        wrapped = []

        def wrap(function):
            wrapped.append(function)
            return lambda params, call: {"wrapped": function(params, call)}

        register_commands(dispatcher, [SPEC], {"scene.create": lambda p, c: p["name"]}, wrap=wrap)
        self.assertEqual(len(wrapped), 1)
        self.assertEqual(dispatcher.run(Call(1, "scene.create", {"name": "a"}))["result"], {"wrapped": "a"})

    def test_a_spec_without_handler_or_a_handler_without_spec_is_refused(self):
        with self.assertRaisesRegex(CommandSpecError, "no handler for scene.create"):
            register_commands(Dispatcher(), [SPEC], {})
        with self.assertRaisesRegex(CommandSpecError, "no spec for scene.delete"):
            register_commands(Dispatcher(), [SPEC], {"scene.create": print, "scene.delete": print})


class LoadSpecsTest(unittest.TestCase):
    def write(self, value):
        folder = tempfile.mkdtemp(prefix="dcc-link-specs-")
        self.addCleanup(shutil.rmtree, folder)
        path = os.path.join(folder, "commands.json")
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(value if isinstance(value, str) else json.dumps(value))
        return path

    def test_a_good_file_loads(self):
        self.assertEqual(load_command_specs(self.write([SPEC]))[0]["name"], "scene.create")

    def test_bad_files_name_the_problem(self):
        with self.assertRaisesRegex(CommandSpecError, "cannot read"):
            load_command_specs(self.write("{"))
        with self.assertRaisesRegex(CommandSpecError, "JSON array"):
            load_command_specs(self.write({}))
        with self.assertRaisesRegex(CommandSpecError, "command spec 0 .*'signature'"):
            load_command_specs(self.write([{"name": "a", "description": "d"}]))
        with self.assertRaisesRegex(CommandSpecError, "declared twice"):
            load_command_specs(self.write([SPEC, SPEC]))
        with self.assertRaisesRegex(CommandSpecError, "unknown key 'flags'"):
            load_command_specs(self.write([dict(SPEC, flags=[])]))
        with self.assertRaisesRegex(CommandSpecError, "type"):
            load_command_specs(self.write([dict(SPEC, args={"properties": {}})]))
