"""The stand-in's render globals and render (not a Maya module): what Maya does with the
attributes the policy guards, so a test can see an attack succeed or fail.

- ``defaultRenderGlobals`` (type ``renderGlobals``) holds the pre/post MEL hooks and
  ``imageFilePrefix``, by long or short name (Maya's names), read and set with ``getAttr`` and
  ``setAttr``; ``aliasAttr`` names them too.
- ``render`` "runs" each non-empty hook and "reads" each ``file`` node's texture: it cannot run
  MEL, so it writes ``stand-in Maya: ran MEL ...`` and ``stand-in Maya: read ...`` to stderr,
  which the tests read as Maya's output.
- ``attributeQuery(name, node=..., usedAsFilename=True)`` answers as Maya marks attributes
  (``file.fileTextureName``, the render globals' ``imageFilePrefix``, and attributes added with
  ``addAttr(usedAsFilename=True)``); ``longName=True`` resolves the render globals' short names
  and aliases.
"""

import sys

NODE = "defaultRenderGlobals"
HOOKS = {
    "preMel": "pram", "postMel": "poam", "preRenderLayerMel": "prlm", "postRenderLayerMel": "polm",
    "preRenderMel": "prm", "postRenderMel": "pom", "preFurRenderMel": "pfrm", "postFurRenderMel": "pfom",
    "imageFilePrefix": "ifp",
}
_SHORT = {short: long for long, short in HOOKS.items()}
_values = {}
_aliases = {}
_file_names = {("file", "fileTextureName"), ("file", "ftn")}
_added = set()  # (node, attribute) added with usedAsFilename
NOT_HERE = object()


def reset():
    _values.clear()
    _aliases.clear()
    _added.clear()


def _long(name):
    name = _aliases.get(name, name)
    return _SHORT.get(name, name)


def _render_plug(plug):
    node, _, attribute = plug.lstrip(":").partition(".")
    if node != NODE:
        return None
    long = _long(attribute)
    if long not in HOOKS:
        raise RuntimeError(f"No object matches name: {plug}")
    return long


def handle(name, args, flags, scene):
    """The stand-in's own answer for a call, or NOT_HERE to forward it to the scene."""
    if name == "setAttr" and args and isinstance(args[0], str):
        long = _render_plug(args[0])
        if long is not None:
            _values[long] = args[1] if len(args) > 1 else ""
            return None
    if name == "getAttr" and args and isinstance(args[0], str):
        long = _render_plug(args[0])
        if long is not None:
            return _values.get(long, "")
    if name == "nodeType" and args == (NODE,):
        return "renderGlobals"
    if name == "ls" and flags.get("type") == "renderGlobals":
        return [NODE]
    if name == "aliasAttr" and len(args) == 2 and _render_plug(args[1]) is not None:
        _aliases[args[0]] = _render_plug(args[1])
        return True
    if name == "attributeQuery" and args and flags.get("node"):
        node = flags["node"]
        if node == NODE:
            if flags.get("longName"):
                return _long(args[0])
            if flags.get("usedAsFilename"):
                return _long(args[0]) == "imageFilePrefix"
        elif flags.get("usedAsFilename"):
            kind = scene("nodeType", [node], {})
            return (kind, args[0]) in _file_names or (node, args[0]) in _added
    if name == "addAttr" and flags.get("usedAsFilename") and args:
        flags = {key: value for key, value in flags.items() if key != "usedAsFilename"}
        _added.add((args[0], flags.get("longName")))
        return scene(name, list(args), flags)
    if name == "render":
        for hook in sorted(_values):
            if hook != "imageFilePrefix" and _values[hook]:
                sys.stderr.write(f"stand-in Maya: ran MEL at render ({hook}): {_values[hook]}\n")
        for node in scene("ls", [], {"type": "file"}) or []:
            sys.stderr.write(f"stand-in Maya: read {scene('getAttr', [node + '.fileTextureName'], {})}\n")
        sys.stderr.flush()
        return "image.iff"
    return NOT_HERE
