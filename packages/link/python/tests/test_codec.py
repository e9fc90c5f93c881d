import struct
import unittest

import json

from dcc_link.codec import MAX_PARAMS_DEPTH, FrameDecoder, FrameError, decode_body, encode_frame


def frame(body: bytes) -> bytes:
    return struct.pack(">I", len(body)) + body


class EncodeTest(unittest.TestCase):
    def test_length_prefix_and_compact_utf8_json(self):
        data = encode_frame({"type": "result", "id": 1, "result": "été"})
        body = '{"type":"result","id":1,"result":"été"}'.encode("utf-8")
        self.assertEqual(data, struct.pack(">I", len(body)) + body)

    def test_refuses_a_body_over_the_limit(self):
        with self.assertRaises(FrameError) as caught:
            encode_frame({"type": "result", "result": "x" * 2000}, max_frame_bytes=1024)
        self.assertEqual(caught.exception.code, "FRAME_TOO_LARGE")

    def test_a_body_exactly_at_the_limit_passes(self):
        base = len(encode_frame({"type": "r", "p": ""})) - 4
        data = encode_frame({"type": "r", "p": "x" * (1024 - base)}, max_frame_bytes=1024)
        self.assertEqual(len(data), 4 + 1024)

    def test_nan_and_infinity_are_not_json(self):
        for value in (float("nan"), float("inf")):
            with self.assertRaises(ValueError):
                encode_frame({"type": "result", "result": value})

    def test_unserialisable_values_raise_type_error(self):
        with self.assertRaises(TypeError):
            encode_frame({"type": "result", "result": object()})

    def test_a_lone_surrogate_is_refused(self):
        with self.assertRaises(ValueError):
            encode_frame({"type": "result", "result": "\ud800"})


class DecodeTest(unittest.TestCase):
    def test_round_trip_split_at_every_byte(self):
        stream = encode_frame({"type": "a", "n": 1}) + encode_frame({"type": "b", "s": "ü"})
        decoder = FrameDecoder()
        frames = []
        for index in range(len(stream)):
            frames += decoder.feed(stream[index : index + 1])
        self.assertEqual(frames, [{"type": "a", "n": 1}, {"type": "b", "s": "ü"}])
        self.assertEqual(decoder.buffered, 0)

    def test_several_frames_in_one_chunk(self):
        stream = b"".join(encode_frame({"type": "t", "i": i}) for i in range(5))
        self.assertEqual([f["i"] for f in FrameDecoder().feed(stream)], [0, 1, 2, 3, 4])

    def test_an_oversized_header_is_refused_before_its_body_arrives(self):
        decoder = FrameDecoder(max_frame_bytes=1024)
        with self.assertRaises(FrameError) as caught:
            decoder.feed(struct.pack(">I", 1025))
        self.assertEqual(caught.exception.code, "FRAME_TOO_LARGE")

    def test_the_limit_can_be_raised_later(self):
        decoder = FrameDecoder(max_frame_bytes=16)
        decoder.max_frame_bytes = 4096
        self.assertEqual(decoder.feed(encode_frame({"type": "t", "p": "x" * 100})), [{"type": "t", "p": "x" * 100}])

    def test_invalid_utf8_is_a_bad_frame(self):
        with self.assertRaises(FrameError) as caught:
            FrameDecoder().feed(frame(b'{"type":"\xff"}'))
        self.assertEqual(caught.exception.code, "BAD_FRAME")

    def test_utf16_json_is_not_accepted(self):
        with self.assertRaises(FrameError):
            decode_body('{"type":"t"}'.encode("utf-16"))

    def test_garbage_and_non_objects_are_bad_frames(self):
        for body in (b"", b"not json", b"[1,2]", b'"text"', b"{}", b'{"type":3}', b'{"type":NaN}'):
            with self.subTest(body=body), self.assertRaises(FrameError) as caught:
                decode_body(body)
            self.assertEqual(caught.exception.code, "BAD_FRAME")

    def test_nan_inside_a_frame_is_refused(self):
        with self.assertRaises(FrameError):
            decode_body(b'{"type":"t","v":NaN}')


def call_body(params_json: str) -> bytes:
    return ('{"type":"call","id":1,"method":"echo","params":' + params_json + "}").encode()


def nested(depth: int) -> str:
    """Params nested ``depth`` levels: an object, then arrays, the innermost empty."""
    return "{\"v\":" + "[" * (depth - 1) + "]" * (depth - 1) + "}"


class NestingTest(unittest.TestCase):
    def test_params_at_the_limit_decode(self):
        value = decode_body(call_body(nested(MAX_PARAMS_DEPTH)))
        self.assertEqual(json.dumps(value["params"]), json.dumps(json.loads(nested(MAX_PARAMS_DEPTH))))

    def test_params_one_level_deeper_are_refused_naming_the_limit(self):
        with self.assertRaises(FrameError) as caught:
            decode_body(call_body(nested(MAX_PARAMS_DEPTH + 1)))
        self.assertEqual(caught.exception.code, "BAD_FRAME")
        self.assertIn(f"at most {MAX_PARAMS_DEPTH} levels", caught.exception.message)

    def test_nesting_that_would_exhaust_the_recursion_limit_is_a_bad_frame(self):
        for body in (
            call_body("[" * 100_000 + "]" * 100_000),
            call_body('{"a":' * 5000 + "1" + "}" * 5000),
            call_body("[" * 100_000),  # never closed: would recurse before failing
        ):
            with self.subTest(size=len(body)), self.assertRaises(FrameError) as caught:
                decode_body(body)
            self.assertEqual(caught.exception.code, "BAD_FRAME")

    def test_brackets_inside_strings_do_not_count(self):
        text = "[" * 500 + '\\" {' + "]" * 3
        params = json.dumps({"name": text, "escaped": '"[[[' * 100})
        self.assertEqual(decode_body(call_body(params))["params"]["name"], text)

    def test_an_unterminated_string_of_escaped_quotes_is_refused_in_linear_time(self):
        # Each escaped quote could start a string that never ends; looking for every one of
        # their ends would take hours here.
        with self.assertRaises(FrameError) as caught:
            decode_body(b'{"type":"call","params":{"a":"' + b'\\"' * 300_000)
        self.assertEqual(caught.exception.code, "BAD_FRAME")

    def test_wide_shallow_values_decode(self):
        params = json.dumps({"v": [[i, [i]] for i in range(10_000)]})
        self.assertEqual(len(decode_body(call_body(params))["params"]["v"]), 10_000)

    def test_any_failure_while_decoding_is_a_bad_frame(self):
        import dcc_link.codec as codec

        original = codec.json.loads

        def exhausted(*_args, **_kwargs):
            raise MemoryError()

        codec.json.loads = exhausted
        try:
            with self.assertRaises(FrameError) as caught:
                decode_body(b'{"type":"t"}')
        finally:
            codec.json.loads = original
        self.assertEqual(caught.exception.code, "BAD_FRAME")
        self.assertIn("MemoryError", caught.exception.message)


if __name__ == "__main__":
    unittest.main()
