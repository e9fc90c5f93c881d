"""The tiny DCC: a scene of named objects with an undo, and its commands. Each handler takes the
call's params, already checked against its spec in ``commands.json`` by ``serve``."""

import json
import os
import sys
import time

from dcc_link import HandlerError, Transaction, checkpoint, encode_png, image_result, wrote

COLOURS = {"cube": b"\x40\x80\xff", "sphere": b"\xff\x80\x40", None: b"\xff\xff\xff"}


class Scene:
    def __init__(self):
        self.objects = {}
        self.cancelled = 0
        self.before = None

    def create(self, params, call):
        name = params["name"]
        if name in self.objects:
            raise HandlerError("EXISTS", f"an object named {name!r} exists", {"name": name})
        item = {"name": name, "kind": params.get("kind", "cube"), "size": params.get("size", 1)}
        self.objects[name] = item
        return item

    def list(self, params, call):
        return list(self.objects.values())

    def delete(self, params, call):
        if self.objects.pop(params["name"], None) is None:
            known = ", ".join(self.objects) or "none"
            message = f"no object named {params['name']!r} (objects: {known})"
            raise HandlerError("NOT_FOUND", message, {"name": params["name"]})

    def save(self, params, call):
        target = self.folder.check("path", params["path"])  # a refusal is answered POLICY
        os.makedirs(os.path.dirname(target), exist_ok=True)
        with open(target, "w", encoding="utf-8") as handle:
            json.dump(list(self.objects.values()), handle)
        return {"path": wrote(target)}  # listed in the transaction's filesWritten

    def bake(self, params, call):
        print("tiny: baking", file=sys.stderr, flush=True)
        for _frame in range(params["frames"]):
            try:
                checkpoint()  # a cancel stops the bake here
            except HandlerError:
                self.cancelled += 1
                raise
            time.sleep(0.01)
        return {"frames": params["frames"]}

    def info(self, params, call):
        return {"pid": os.getpid(), "objects": len(self.objects), "cancelled": self.cancelled}

    def capture(self, params, call):
        """A picture of the scene: a bar 4 pixels wide per object, coloured by kind, 4 per size."""
        bars = list(self.objects.values()) or [{"kind": None, "size": 0}]
        rows = [
            COLOURS[bar["kind"] if 16 - y <= bar["size"] * 4 else None] * 4 for y in range(16) for bar in bars
        ]
        return image_result(encode_png(4 * len(bars), 16, b"".join(rows)))

    def transaction(self):
        """A script's changes as one undo step: the scene as it was at begin, put back on undo."""

        def begin(label):
            self.before = {name: dict(item) for name, item in self.objects.items()}

        def undo(label):
            self.objects = self.before

        return Transaction(begin, commit=lambda label: self.objects != self.before, undo=undo)

    def handlers(self, folder):
        """The handler of each command of ``commands.json``; files go to ``folder``."""
        self.folder = folder
        names = ["create", "list", "delete", "save", "bake", "info", "capture"]
        return {f"scene.{name}": getattr(self, name) for name in names}
