"""Inside Blender: the work a script's change report and undo bookkeeping do per data command
does not grow with the scene. Counted, not timed:

- the Python lines run by the toolkit's own code (``dcc_blender``) for a script of data commands
  on a 10,000-object scene are about as many as on the factory scene: no Python loop over the
  data-blocks;
- Blender's name listing (``keys()`` of a collection, which reads every item's name in C) runs on
  the 10,000 objects at most twice per script (its first change and its end), however many
  commands the script sends;
- a data-block named by its path (``objects["Kept"]``, a ``$path``) is looked up by name in the
  10,000 objects (``get()``, a walk of Blender's list in C) as often in a script of many commands
  as in a script of one: once found or made, it is known by name;
- Blender's type definitions (a type's properties, functions and their parameters, which
  ``get()`` and ``keys()`` find by walking Blender's lists of them) are read as often in a script
  of many data commands as in a script of one: each is read once and kept. They are not
  scene-sized, but on a large scene Blender's own work for a command (the place of a new name in
  a list of 100,000 objects) leaves none of them in the processor's caches, so reading them
  again per command made a command cost more the larger the scene;
- the scene is evaluated (a view-layer update, which costs what the scene holds: a relations
  rebuild after ``objects.new`` and a link, 0.3 s with 10,000 objects) as often in a script of
  many data commands as in a script of one: writes leave the scene to be evaluated once, never
  per command. Counted by Blender's ``depsgraph_update_post``, which runs once per evaluation
  that had something to update.

    blender -b --factory-startup --python-exit-code 1 --python blender_change_work.py
"""

import os
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
PYTHON = os.path.dirname(HERE)
LINK = os.environ.get("DCC_LINK_PYTHON_PATH") or os.path.join(PYTHON, "..", "..", "link", "python")
for folder in (PYTHON, os.path.abspath(LINK)):
    sys.path.insert(0, folder)

import bpy  # noqa: E402
from dcc_link import Call  # noqa: E402

from dcc_blender.handlers import build_dispatcher, prepare  # noqa: E402
from dcc_blender.policy import Policy  # noqa: E402

BIG = 10_000
OURS = os.path.join(PYTHON, "dcc_blender")
# How Blender spells the owner of a type's properties or functions, or of a function's parameters.
DEFINITIONS = ("<bpy_struct, Struct(", "<bpy_struct, Function(")
policy = Policy(tempfile.mkdtemp(prefix="dcc-blender-work-"))
prepare(policy)
dispatcher = build_dispatcher(policy)
ids = [0]


def call(method, params):
    ids[0] += 1
    reply = dispatcher.run(Call(ids[0], method, params))
    assert reply["type"] == "result", reply
    return reply["result"]


def script(commands: int):
    """A script of data commands, as the executor sends it: begin, commands, end."""
    call("blender.txn.begin", {"label": "work"})
    made = call("data.call", {"path": "objects.new", "args": ["Made", None]})
    call("data.call", {"path": 'collections["Collection"].objects.link', "args": [{"$path": made["path"]}]})
    call("data.set", {"path": 'objects["Made"].name', "value": "Kept"})
    for index in range(commands):
        call("data.set", {"path": 'objects["Kept"].location', "value": [index, 0, 0]})
        temp = call("data.call", {"path": "objects.new", "args": [f"Temp{index}", None]})
        call("data.call", {"path": 'collections["Collection"].objects.link', "args": [{"$path": temp["path"]}]})
        call("data.call", {"path": "objects.remove", "args": [{"$path": temp["path"]}]})
    call("data.call", {"path": "objects.remove", "args": [{"$path": 'objects["Camera"]'}]})
    return call("blender.txn.end", {"rollback": True})


class Counter:
    """Lines run in dcc_blender, keys() calls on collections of at least BIG items, look-ups by
    name in those, and look-ups in Blender's type definitions."""

    def __init__(self):
        self.lines = 0
        self.listings = 0
        self.evaluations = 0
        self.lookups = 0
        self.definitions = 0

    def evaluated(self, *_args):
        self.evaluations += 1

    def trace(self, frame, event, arg):
        if not frame.f_code.co_filename.startswith(OURS):
            return None
        if event == "line":
            self.lines += 1
        return self.trace

    def profile(self, frame, event, arg):
        name = getattr(arg, "__name__", "") if event == "c_call" else ""
        if name in ("keys", "get", "find"):
            owner = getattr(arg, "__self__", None)
            if not isinstance(owner, bpy.types.bpy_prop_collection):
                return
            if repr(getattr(owner, "data", None)).startswith(DEFINITIONS):
                self.definitions += 1
            elif len(owner) >= BIG:
                if name == "keys":
                    self.listings += 1
                else:
                    self.lookups += 1

    def run(self, function, *args):
        bpy.app.handlers.depsgraph_update_post.append(self.evaluated)
        sys.settrace(self.trace)
        sys.setprofile(self.profile)
        try:
            return function(*args)
        finally:
            sys.settrace(None)
            sys.setprofile(None)
            bpy.app.handlers.depsgraph_update_post.remove(self.evaluated)


def measured(commands: int):
    counter = Counter()
    report = counter.run(script, commands)
    assert report["rolledBack"] is True, report
    assert report["changes"]["removed"] == [{"type": "Object", "name": "Camera", "path": 'objects["Camera"]'}], report
    return counter


script(1)  # warms the caches (RNA tables, the dispatcher's specs) both sides share
small = measured(20)
mesh = bpy.data.meshes["Cube"]
collection = bpy.data.collections["Collection"]
for index in range(BIG):
    collection.objects.link(bpy.data.objects.new(f"Crowd{index}", mesh))
bpy.context.view_layer.update()
bpy.ops.ed.undo_push(message="crowd")  # as Blender's own interface would after a change
big = measured(20)
few = measured(1)
print(f"lines: {small.lines} on {len(bpy.data.objects) - BIG} objects, {big.lines} on {len(bpy.data.objects)}")
assert len(bpy.data.objects) == BIG + 3, "the rollback did not return to the crowd"
print(f"name listings of the {BIG} objects: {big.listings} for 20 commands, {few.listings} for 1")
assert big.lines <= small.lines * 1.1 + 50, "the toolkit's Python work grows with the scene"
assert big.listings <= 2 and big.listings == few.listings, "the objects' names are listed per command"
print(f"look-ups by name in the {BIG} objects: {big.lookups} for 20 commands, {few.lookups} for 1")
assert big.lookups == few.lookups, "a data-block is looked up by name per command"
print(f"look-ups in type definitions: {big.definitions} for 20 commands, {few.definitions} for 1")
assert big.definitions == few.definitions, "Blender's type definitions are read per data command"
print(f"scene evaluations: {big.evaluations} for 20 commands, {few.evaluations} for 1")
assert big.evaluations == few.evaluations, "the scene is evaluated per data command"
print("CHANGE WORK OK", flush=True)
