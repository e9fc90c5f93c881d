import json
import unittest

from dcc_link.call import Call, checkpoint, current_call
from dcc_link.dispatch import Dispatcher
from dcc_link.errors import CallCancelled, HandlerError


def call(method, params=None):
    return Call(7, method, params or {})


class DispatcherTest(unittest.TestCase):
    def setUp(self):
        self.dispatcher = Dispatcher()

    def test_a_result_reply(self):
        self.dispatcher.register("add", lambda params, _call: params["a"] + params["b"])
        self.assertEqual(
            self.dispatcher.run(call("add", {"a": 2, "b": 3})),
            {"type": "result", "id": 7, "result": 5},
        )

    def test_the_decorator_uses_the_function_name(self):
        @self.dispatcher.handler()
        def ping(params, _call):
            return "pong"

        self.assertEqual(self.dispatcher.names(), ["ping"])

    def test_a_name_is_registered_once(self):
        self.dispatcher.register("x", lambda p, c: None)
        with self.assertRaises(ValueError):
            self.dispatcher.register("x", lambda p, c: None)

    def test_an_unknown_method_did_not_start(self):
        reply = self.dispatcher.run(call("missing"))
        self.assertEqual(reply["error"]["code"], "UNKNOWN_METHOD")
        self.assertIs(reply["started"], False)

    def test_a_typed_error_keeps_its_code_message_and_data(self):
        def handler(params, _call):
            raise HandlerError("NO_OBJECT", "no object named Cube", {"names": ["Sphere"]})

        self.dispatcher.register("get", handler)
        reply = self.dispatcher.run(call("get"))
        self.assertEqual(
            reply,
            {
                "type": "error",
                "id": 7,
                "error": {"code": "NO_OBJECT", "message": "no object named Cube", "data": {"names": ["Sphere"]}},
                "started": True,
            },
        )

    def test_an_unexpected_exception_becomes_handler_failed_with_its_type(self):
        def handler(params, _call):
            raise KeyError("Cube")

        self.dispatcher.register("get", handler)
        import contextlib
        import io

        with contextlib.redirect_stderr(io.StringIO()) as stderr:
            reply = self.dispatcher.run(call("get"))
        self.assertEqual(reply["error"]["code"], "HANDLER_FAILED")
        self.assertEqual(reply["error"]["type"], "KeyError")
        self.assertIn("Cube", reply["error"]["message"])
        self.assertIn("Traceback", stderr.getvalue())
        self.assertNotIn("trace", reply["error"])

    def test_the_reply_is_json(self):
        self.dispatcher.register("x", lambda p, c: {"ok": [1, 2.5, None, "s"]})
        json.dumps(self.dispatcher.run(call("x")), allow_nan=False)

    def test_a_cancelled_handler_answers_cancelled(self):
        def handler(params, this_call):
            this_call.cancel()
            this_call.checkpoint()
            return "unreachable"

        self.dispatcher.register("render", handler)
        reply = self.dispatcher.run(call("render"))
        self.assertEqual(reply["error"]["code"], "CANCELLED")
        self.assertIs(reply["started"], True)


class CheckpointTest(unittest.TestCase):
    def test_the_ambient_checkpoint_follows_the_running_call(self):
        seen = []
        dispatcher = Dispatcher()

        def handler(params, this_call):
            seen.append(current_call() is this_call)
            checkpoint()
            this_call.cancel("stop")
            checkpoint()

        dispatcher.register("h", handler)
        reply = dispatcher.run(call("h"))
        self.assertEqual(seen, [True])
        self.assertEqual(reply["error"]["code"], "CANCELLED")
        self.assertIn("stop", reply["error"]["message"])
        self.assertIsNone(current_call())

    def test_checkpoint_outside_a_handler_does_nothing(self):
        checkpoint()

    def test_the_service_hook_runs_before_the_flag_is_read(self):
        this_call = Call(1, "m", {})
        this_call._service = lambda: this_call.cancel("seen by the socket read")
        with self.assertRaises(CallCancelled):
            this_call.checkpoint()


if __name__ == "__main__":
    unittest.main()
