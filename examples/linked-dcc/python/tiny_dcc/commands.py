"""The tiny DCC's commands: a scene of named objects. Each handler takes the call's params,
already checked against its spec in ``commands.json`` by ``register_commands``."""

from __future__ import annotations

import json
import os
import sys
import time
from typing import Any, Dict

from dcc_link import DataFolder, DataFolderRefusal, HandlerError, checkpoint


class Scene:
    """The DCC's state: objects by name, and the data folder files go to."""

    def __init__(self, folder: DataFolder) -> None:
        self.folder = folder
        self.objects: Dict[str, Dict[str, Any]] = {}
        self.cancelled = 0

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
            raise HandlerError(
                "NOT_FOUND",
                f"no object named {params['name']!r} (objects: {', '.join(self.objects) or 'none'})",
                {"name": params["name"]},
            )
        return None

    def save(self, params, call):
        try:
            target = self.folder.check("path", params["path"])
        except DataFolderRefusal as refusal:
            raise HandlerError("POLICY", refusal.message, {"rule": refusal.rule}) from None
        os.makedirs(os.path.dirname(target), exist_ok=True)
        with open(target, "w", encoding="utf-8") as handle:
            json.dump(list(self.objects.values()), handle)
        return {"path": self.folder.relative(target)}

    def bake(self, params, call):
        print("tiny: baking", file=sys.stderr, flush=True)
        for frame in range(params["frames"]):
            try:
                checkpoint()
            except HandlerError:
                self.cancelled += 1
                raise
            time.sleep(0.01)
        return {"frames": params["frames"]}

    def info(self, params, call):
        return {"pid": os.getpid(), "objects": len(self.objects), "cancelled": self.cancelled}

    def handlers(self):
        """The handler of each command of ``commands.json``."""
        return {
            "scene.create": self.create,
            "scene.list": self.list,
            "scene.delete": self.delete,
            "scene.save": self.save,
            "scene.bake": self.bake,
            "scene.info": self.info,
        }
