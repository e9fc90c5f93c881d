"""The data commands: ``data.get``, ``data.set``, ``data.list``, ``data.call``, ``data.describe``
(see ``src/data/data-commands.json``), on the paths ``rna_walk`` resolves."""

from __future__ import annotations

import difflib
import math
from typing import Any, List, Optional

import bpy
from dcc_link import HandlerError, checkpoint

from . import compat, path_options, transaction
from . import policy as policy_module
from .compat import COLLECTION_TYPE, ID_TYPE, STRUCT_TYPE
from .paths import PathSyntaxError, Step, format_path, parse_path
from .rna_walk import (
    INVALID_ARGS,
    INVALID_PATH,
    INVALID_VALUE,
    NOT_FOUND,
    READ_ONLY,
    STRUCT_METHODS,
    _attr,
    _close,
    _index,
    _members,
    _parse,
    _rna_of,
    note_block_path,
    python_properties,
    remember_found,
    rna_property,
    resolve_text,
    walk,
)
from .values import array_value_problem, from_json, to_json


def _depth(options) -> int:
    depth = (options or {}).get("depth", 1)
    if isinstance(depth, bool) or not isinstance(depth, int) or depth < 0:
        raise HandlerError(INVALID_VALUE, f"options.depth must be a non-negative integer, not {depth!r}")
    return depth


def _options(params) -> dict:
    options = params.get("options") or {}
    if not isinstance(options, dict):
        raise HandlerError(INVALID_VALUE, "options must be an object")
    return options


def _accept(command: str, params: dict, keys, options=()) -> None:
    """Refuses arguments the command does not take: a misspelt or misplaced key would otherwise
    be ignored without a word (``{ collection, fields }`` instead of ``options: { fields }``)."""
    unknown = [key for key in params if key not in keys]
    if unknown:
        hint = ""
        misplaced = [key for key in unknown if key in options]
        if misplaced:
            inner = ", ".join(misplaced)
            hint = f" ({inner} goes inside options: {{ {inner} }})"
        raise HandlerError(
            INVALID_ARGS,
            f"{command} takes {', '.join(keys)}; unknown: {', '.join(unknown)}{hint}",
        )
    given = params.get("options")
    if isinstance(given, dict):
        unknown = [key for key in given if key not in options]
        if unknown:
            takes = ", ".join(options) if options else "nothing"
            raise HandlerError(
                INVALID_ARGS,
                f"the options of {command} take {takes}; unknown: {', '.join(unknown)}",
            )


# ---- data.get ------------------------------------------------------------------------------


def data_get(params: dict, call, policy) -> Any:
    _accept("data.get", params, ("path", "options"), ("depth",))
    path = _parse(params.get("path"))
    depth = _depth(_options(params))
    return to_json(walk(path, policy).value, depth)


# ---- data.set ------------------------------------------------------------------------------


def _blend_dir(policy) -> Optional[str]:
    import os

    if bpy.data.filepath:
        folder = os.path.dirname(bpy.data.filepath)
        if policy.inside(folder):
            return folder
    return None


_SUBTYPES = {"file": "FILE_PATH", "folder": "DIR_PATH", "name": "FILE_NAME"}


def check_string_path(policy, label: str, prop, value, owner_rna=None):
    """Checks a string for a property that names a file or folder (by subtype, name or
    description: see ``path_options``; on ``owner_rna`` when given) and returns the value to
    store."""
    if not isinstance(value, str) or prop is None or prop.type != "STRING" or value == "":
        return value
    if owner_rna is not None:
        kind = path_options.property_kind(owner_rna, prop)
    else:
        kind = path_options.path_option_kind(prop.identifier, prop.subtype, prop.description)
    if kind is None:
        return value
    relative = value.startswith("//")
    base = _blend_dir(policy) if relative else None
    try:
        # Found by name or description: stored as given, so it may name a folder too.
        subtype = _SUBTYPES[kind] if prop.subtype in path_options.SUBTYPE_KINDS or kind == "name" else "DIR_PATH"
        checked = policy.check_path(label, value, subtype, base)
    except policy_module.PolicyRefusal as refusal:
        raise HandlerError("POLICY", refusal.message, {"rule": refusal.rule}) from None
    if prop.subtype not in path_options.SUBTYPE_KINDS:
        # Found by its name or description (a File Output slot's sub-path): Blender reads it
        # relative to something of its own, so it is stored as given.
        return value
    # Once the file is saved in the data folder, a '//' path stays relative to it, as Blender
    # stores it, so the .blend keeps working when the folder moves (to a farm, say). Unsaved,
    # '//' has no folder to mean in Blender, so the checked absolute path is stored instead.
    return value if base is not None else checked


def _is_name(rna, prop) -> bool:
    """A property that names its struct (``name``, or the type's own name property)."""
    named = getattr(rna, "name_property", None)
    return prop.identifier == "name" or prop.identifier.endswith("_name") or (named is not None and named.identifier == prop.identifier)


def _refuse(rule: str, message: str):
    raise HandlerError("POLICY", message, {"rule": rule})


def _data_rules(policy, owner, prop, value, label: str) -> None:
    owner_type = owner.bl_rna.identifier
    name = prop.identifier
    try:
        if owner_type == "Driver" and name == "expression" and isinstance(value, str):
            policy.check_driver_expression(value, [v.name for v in owner.variables])
    except policy_module.PolicyRefusal as refusal:
        _refuse(refusal.rule, refusal.message)
    freestyle = (owner_type == "FreestyleSettings" and name == "mode" and value == "SCRIPT") or (
        owner_type == "FreestyleModuleSettings" and name == "script"
    )
    if freestyle and not policy.lifted("freestyle-python"):
        _refuse(
            "freestyle-python",
            f"setting {label} is refused (rule 'freestyle-python': Freestyle style modules are Python run at render time)",
        )


def data_set(params: dict, call, policy) -> Any:
    """Assigns, then returns the value as Blender stored it: a name cut at 63 bytes, a number
    clamped to its range."""
    _accept("data.set", params, ("path", "value"))
    if "value" not in params:
        raise HandlerError(INVALID_VALUE, "data.set needs a value")
    path = _parse(params.get("path"))
    if len(path.steps) < 2:
        raise HandlerError(READ_ONLY, f"{path.text()} cannot be assigned: set a property of it")
    last = path.steps[-1]
    holder = walk(path, policy, upto=len(path.steps) - 1)
    target = holder.value
    label = path.text()
    resolve = lambda text: resolve_text(text, policy)  # noqa: E731
    raw = params["value"]
    if last.kind == "attr":
        rna = _rna_of(target)
        prop = rna_property(target, last.value)
        if prop is None:
            _attr(target, last.value, holder.text, False)  # raises NOT_FOUND (or names a function)
            raise HandlerError(READ_ONLY, f"{label} is read-only (a property of Blender's Python layer)")
        if prop.is_readonly or prop.type == "COLLECTION":
            what = "a collection (use data.call with its new/remove functions)" if prop.type == "COLLECTION" else "read-only"
            raise HandlerError(READ_ONLY, f"{label} is {what}")
        problem = array_value_problem(prop, raw)
        if problem is not None:
            raise HandlerError(INVALID_VALUE, f"{label} {problem}")
        value = from_json(raw, prop, resolve)
        value = check_string_path(policy, label, prop, value, rna)
        if prop.type == "STRING" and _is_name(rna, prop):
            policy.check_name(label, value)
        _data_rules(policy, target, prop, value, label)
        renamed = target.name if last.value == "name" and isinstance(target, ID_TYPE) else None
        _assign(lambda: setattr(target, last.value, value), label)
        stored = getattr(target, last.value)
        if not _same(stored, value):
            # A value Blender computes from evaluated data (an object's dimensions, from its
            # evaluated matrix) reads true only once the scene is evaluated; a stored one (the
            # usual case) needs no evaluation to be read back.
            settle()
            stored = getattr(target, last.value)
        if renamed is not None:
            transaction.note_rename(renamed, stored)  # the change report names it by its last name
        if prop.type == "POINTER" and value is not None and stored != value:
            # Blender drops some assignments without an error (a parent loop, an object of the
            # wrong kind for a camera or a constraint target); saying nothing would read as done.
            why = " (it would make a parent loop)" if last.value == "parent" else ""
            kept = "nothing" if stored is None else f"{stored.name!r}" if hasattr(stored, "name") else "its value"
            raise HandlerError(
                INVALID_VALUE, f"{label}: Blender did not take {getattr(value, 'name', value)!r}{why}; it keeps {kept}"
            )
        return to_json(stored, 0)
    elif last.kind == "index":
        prop = holder.prop
        if prop is not None and getattr(prop, "is_readonly", False):
            raise HandlerError(READ_ONLY, f"{label} is read-only")
        if isinstance(target, COLLECTION_TYPE):
            raise HandlerError(READ_ONLY, f"{label} is an item of a collection: set its properties instead")
        _index(target, last.value, holder.text)
        value = from_json(raw, None, resolve)
        _assign(lambda: target.__setitem__(last.value, value), label)
        return to_json(target[last.value], 0)
    else:
        if isinstance(target, COLLECTION_TYPE) or not isinstance(target, STRUCT_TYPE):
            raise HandlerError(READ_ONLY, f"{label} is an item of a collection: set its properties instead")
        value = from_json(raw, None, None)
        _assign(lambda: target.__setitem__(last.value, value), label)
        return to_json(target[last.value], 0)


def _same(stored, written) -> bool:
    """Whether ``stored`` reads back as ``written`` (floats to single precision)."""
    if isinstance(stored, float) and isinstance(written, (int, float)) and not isinstance(written, bool):
        return math.isclose(stored, written, rel_tol=1e-6, abs_tol=1e-6)
    if isinstance(stored, (str, bytes, bool, int)) or stored is None:
        return stored == written
    try:
        items = list(stored)
        wanted = list(written)
    except TypeError:
        return stored == written
    return len(items) == len(wanted) and all(_same(a, b) for a, b in zip(items, wanted))


def _assign(action, label: str) -> None:
    try:
        action()
    except AttributeError as error:
        raise HandlerError(READ_ONLY, f"{label}: {error}") from None
    except (TypeError, ValueError, OverflowError, KeyError) as error:
        raise HandlerError(INVALID_VALUE, f"{label}: {error}") from None
    note_write()


# A write leaves the scene unevaluated: it is evaluated once, before the next command that may
# read what follows from the write (see ``handlers``), not after every write. An evaluation costs
# what the scene holds (after ``objects.new`` and a link, a relations rebuild: 0.6 s with 10,000
# objects in Blender 3.4), so evaluating per write made a script's data commands cost the scene.
_unsettled = False


def note_write() -> None:
    """Marks the scene as written since its last evaluation."""
    global _unsettled
    _unsettled = True


def settle() -> None:
    """Re-evaluates the scene if it was written since it last was, as Blender does before an
    operator: values derived from what was written (an object's ``matrix_world`` and
    ``dimensions``, a child's place, a modifier's mesh) then read true."""
    global _unsettled
    if not _unsettled:
        return
    view_layer = getattr(bpy.context, "view_layer", None)
    if view_layer is None:
        return
    _unsettled = False
    try:
        view_layer.update()
    except RuntimeError:
        # The write itself succeeded; a context that cannot evaluate now is evaluated by the
        # next operator, so the write is not reported as failed.
        pass


# ---- data.list -----------------------------------------------------------------------------


def _item_type(item) -> str:
    return compat.item_kind(item)


def data_list(params: dict, call, policy) -> List[dict]:
    _accept("data.list", params, ("collection", "options"), ("type", "fields"))
    path = _parse(params.get("collection"))
    options = _options(params)
    wanted = options.get("type")
    fields = options.get("fields") or []
    if not isinstance(fields, list) or not all(isinstance(f, str) for f in fields):
        raise HandlerError(INVALID_VALUE, "options.fields must be a list of property names")
    if any(f.startswith("_") for f in fields):
        raise HandlerError(INVALID_VALUE, "options.fields: names starting with '_' are not accessible")
    collection = walk(path, policy).value
    if not isinstance(collection, COLLECTION_TYPE):
        raise HandlerError(INVALID_VALUE, f"{path.text()} is not a collection")
    items = []
    seen = {f: False for f in fields}
    for index, item in enumerate(collection):
        # A long listing stays cancellable, and the blocking loop answers heartbeats meanwhile.
        checkpoint()
        rna = item.bl_rna
        kind = _item_type(item)
        if wanted is not None and wanted not in (kind, rna.identifier):
            continue
        has_name = "name" in rna.properties.keys() and isinstance(getattr(item, "name", None), str)
        step = Step("key", item.name) if has_name else Step("index", index)
        entry = {
            "name": item.name if has_name else None,
            "type": kind,
            "path": format_path(path.root, path.steps + (step,)),
        }
        for field in fields:
            if field in rna.properties.keys():
                seen[field] = True
                entry[field] = to_json(getattr(item, field), 0)
            else:
                entry[field] = None
        items.append(entry)
    if wanted is not None and not items and len(collection):
        _check_type_filter(path.text(), collection, wanted)
    missing = [f for f, found in seen.items() if not found]
    if missing and items:
        names = [p.identifier for p in collection[0].bl_rna.properties] if len(collection) else []
        raise HandlerError(
            NOT_FOUND, f"no item of {path.text()} has {missing[0]!r}{_close(missing[0], names)}"
        )
    return items


def _check_type_filter(label: str, collection, wanted) -> None:
    """A ``type`` that matched nothing must at least be a type such items can have: a misspelt
    one (``mesh``, ``MESHH``) would otherwise look like an empty answer."""
    kinds = compat.kinds_of(collection)
    if wanted in kinds:
        return
    names = sorted(kinds)
    text = str(wanted)
    close = [k for k in names if k.lower() == text.lower()]
    close = close or difflib.get_close_matches(text, names, n=3, cutoff=0.6)
    shown = names[:40]
    more = "" if len(names) <= 40 else f", ... ({len(names)} in all)"
    raise HandlerError(
        INVALID_VALUE,
        f"options.type {wanted!r} is no type of the items of {label}"
        + (f"; did you mean {' or '.join(close)}?" if close else "")
        + f" Types: {', '.join(shown)}{more}",
    )


# ---- data.call -----------------------------------------------------------------------------


class _Parameter:
    """What a call needs of one input parameter of a function, read from its RNA once."""

    __slots__ = ("identifier", "prop", "type", "is_enum_flag", "path_kind")

    def __init__(self, prop) -> None:
        self.identifier = prop.identifier
        self.prop = prop
        self.type = prop.type
        self.is_enum_flag = self.type == "ENUM" and bool(prop.is_enum_flag)
        # The kind of path a string parameter names (see ``check_string_path``); None for any
        # other parameter, which that check passes as it is.
        self.path_kind = (
            path_options.path_option_kind(prop.identifier, prop.subtype, prop.description) if self.type == "STRING" else None
        )


class _Function:
    """A function of a collection type (``objects.new``, ``objects.link``), read from its RNA
    once: looking it up and reading its parameters walks Blender's definitions per call, and
    after Blender's own work on a large scene (a new name's place in a list of 100,000) none of
    that is in the processor's caches any more."""

    __slots__ = ("function", "inputs", "by_name", "names")

    def __init__(self, function) -> None:
        self.function = function
        self.inputs = [_Parameter(p) for p in function.parameters if not p.is_output]
        self.by_name = {p.identifier: p for p in self.inputs}
        self.names = ", ".join(self.by_name)


# Functions of collection types by (the type's RNA pointer, the function's name). Only the
# collections' types: Blender defines those in C for the whole session (a Python collection
# property has none with functions), whereas a struct type an add-on registers can be freed.
_collection_functions: dict = {}


def _collection_function(rna, name: str) -> Optional[_Function]:
    key = (rna.as_pointer(), name)
    found = _collection_functions.get(key)
    if found is None:
        function = rna.functions.get(name)
        if function is None:
            return None
        found = _collection_functions[key] = _Function(function)
    return found


def data_call(params: dict, call, policy) -> Any:
    _accept("data.call", params, ("path", "args", "kwargs"))
    path = _parse(params.get("path"))
    args = params.get("args") or []
    kwargs = params.get("kwargs") or {}
    if not isinstance(args, list) or not isinstance(kwargs, dict):
        raise HandlerError(INVALID_VALUE, "args must be a list and kwargs an object")
    last = path.steps[-1]
    if last.kind != "attr" or len(path.steps) < 2:
        raise HandlerError(INVALID_PATH, f"{path.text()} does not name a function (ending in .function_name)")
    holder = walk(path, policy, upto=len(path.steps) - 1)
    owner = holder.value
    label = path.text()
    rna = _rna_of(owner)
    collection = isinstance(owner, COLLECTION_TYPE)
    if collection and rna is not None:
        known = _collection_function(rna, last.value)
    else:
        _, functions = _members(rna)
        function = functions.get(last.value) if functions else None
        known = _Function(function) if function is not None else None
    if known is None and last.value in STRUCT_METHODS and isinstance(owner, STRUCT_TYPE):
        return _call_struct_method(owner, last.value, args, kwargs, label, policy)
    if known is None:
        props, functions = _members(rna)
        if props is not None and props.get(last.value) is not None:
            raise HandlerError(
                INVALID_PATH,
                f"{label} is a property, not a function: read it with data.get or write it with data.set",
            )
        names = [f.identifier for f in functions] if functions else []
        if isinstance(owner, STRUCT_TYPE):
            names += list(STRUCT_METHODS)
        kind = rna.identifier if rna is not None else type(owner).__name__
        raise HandlerError(
            NOT_FOUND, f"{holder.text} ({kind}) has no function {last.value!r}{_close(last.value, names)}"
        )
    inputs = known.inputs
    by_name = known.by_name
    if len(args) > len(inputs):
        raise HandlerError(
            INVALID_VALUE, f"{label} takes {len(inputs)} arguments ({known.names}), {len(args)} given"
        )
    resolve = lambda text: resolve_text(text, policy)  # noqa: E731
    call_args = []
    for value, param in zip(args, inputs):
        value = from_json(value, param, resolve)
        if param.path_kind is not None:
            value = check_string_path(policy, f"{label} argument {param.identifier}", param.prop, value)
        call_args.append(value)
    call_kwargs = {}
    for name, value in kwargs.items():
        param = by_name.get(name)
        if param is None:
            raise HandlerError(INVALID_VALUE, f"{label} has no parameter {name!r}{_close(name, list(by_name))}")
        value = from_json(value, param, resolve)
        if param.path_kind is not None:
            value = check_string_path(policy, f"{label} argument {name}", param.prop, value)
        call_kwargs[name] = value
    given = {p.identifier: v for p, v in zip(inputs, call_args)}
    given.update(call_kwargs)
    for name, value in given.items():
        if name == "name" or name.endswith("_name"):
            policy.check_name(f"{label} argument {name}", value)
    _call_rules(policy, owner, rna, last.value, given, label)
    if not collection:
        # A data-block's or struct's function may read evaluated data (ray_cast, to_mesh,
        # evaluated_get, closest_point_on_mesh); a collection's (new, remove, link) never does.
        settle()
    try:
        result = getattr(owner, last.value)(*call_args, **call_kwargs)
    except (TypeError, ValueError, RuntimeError, KeyError) as error:
        raise HandlerError(INVALID_VALUE, f"{label}: {str(error).strip()}") from None
    note_write()
    answer = to_json(result, 1)
    if last.value == "new" and path.root == "data" and len(path.steps) == 2 and isinstance(result, ID_TYPE):
        # The script names it next (its $path, a data.set): no walk of the list to find it, and
        # no parse of the path it was answered with.
        remember_found(path.steps[0].value, result)
        note_block_path(answer.get("path"), path.steps[0].value, result.name)
    return answer


def _call_struct_method(owner, name: str, args, kwargs, label: str, policy) -> Any:
    resolve = lambda text: resolve_text(text, policy)  # noqa: E731
    call_args = [from_json(value, None, resolve) for value in args]
    call_kwargs = {key: from_json(value, None, resolve) for key, value in kwargs.items()}
    settle()
    try:
        result = getattr(owner, name)(*call_args, **call_kwargs)
    except (TypeError, ValueError, RuntimeError, KeyError) as error:
        raise HandlerError(INVALID_VALUE, f"{label}: {str(error).strip()}") from None
    note_write()
    return to_json(result, 1)


# Functions that write or read a data-block's file at its stored path.
_STORED_PATH_FUNCTIONS = frozenset({"save", "save_render", "reload", "pack", "unpack", "update"})


def _call_rules(policy, owner, rna, name: str, given: dict, label: str) -> None:
    if name in _STORED_PATH_FUNCTIONS and isinstance(owner, ID_TYPE):
        from . import stored_paths

        refused = stored_paths.refusal(policy, label, stored_paths.blend_dir())
        if refused is not None:
            _refuse(refused.rule, refused.message)
    if name == "unpack":
        try:
            policy.check_unpack(label, given.get("method", "USE_LOCAL"))
        except policy_module.PolicyRefusal as refusal:
            _refuse(refusal.rule, refusal.message)
    if name in ("save", "save_render") and rna is not None and rna.identifier == "Image":
        if not given.get("filepath"):
            filepath = owner.filepath_raw or ""
            if name == "save" and filepath:
                check_string_path(policy, f"{label} (the image's filepath)", rna.properties["filepath_raw"], filepath)


# ---- data.describe -------------------------------------------------------------------------


def _describe_prop(prop) -> dict:
    info = {
        "name": prop.identifier,
        "type": prop.type.lower(),
        "readonly": bool(prop.is_readonly),
        "description": prop.description,
    }
    if prop.subtype not in ("NONE", ""):
        info["subtype"] = prop.subtype.lower()
    length = getattr(prop, "array_length", 0)
    if length:
        info["length"] = length
    if prop.type in ("POINTER", "COLLECTION") and prop.fixed_type is not None:
        info["struct"] = prop.fixed_type.identifier
    if prop.type == "ENUM":
        items = [item.identifier for item in prop.enum_items]
        if items:
            info["items"] = items
        if prop.is_enum_flag:
            info["flag"] = True
    return info


def _signature(function) -> str:
    inputs, outputs = [], []
    for p in function.parameters:
        kind = p.fixed_type.identifier if p.type in ("POINTER", "COLLECTION") and p.fixed_type is not None else p.type.lower()
        if p.is_output:
            outputs.append(kind)
        else:
            inputs.append(f"{p.identifier}: {kind}" + ("" if p.is_required else "?"))
    text = f"{function.identifier}({', '.join(inputs)})"
    return text + (f" -> {', '.join(outputs)}" if outputs else "")


def describe_rna(rna, path: Optional[str] = None) -> dict:
    out = {
        "name": rna.identifier,
        "description": rna.description,
        "properties": [_describe_prop(p) for p in rna.properties if p.identifier != "rna_type"],
        "functions": [_signature(f) for f in rna.functions],
    }
    if rna.identifier not in ("BlendData",) and not rna.identifier.startswith("BlendData"):
        out["functions"] += [
            "keyframe_insert(data_path: string, index?: int, frame?: float, group?: string, options?: enum) -> boolean",
            "keyframe_delete(data_path: string, index?: int, frame?: float, group?: string) -> boolean",
            "driver_add(path: string, index?: int) -> FCurve",
            "driver_remove(path: string, index?: int) -> boolean",
        ]
    for name, member in python_properties(getattr(bpy.types, rna.identifier, None)).items():
        doc = (member.__doc__ or "").strip().splitlines()
        out["properties"].append(
            {"name": name, "type": "python", "readonly": True, "description": doc[0] if doc else "Defined by Blender's Python layer"}
        )
    if rna.base is not None:
        out["base"] = rna.base.identifier
    if path is not None:
        out["path"] = path
    return out


def data_describe(params: dict, call, policy) -> dict:
    _accept("data.describe", params, ("type",))
    name = params.get("type")
    if not isinstance(name, str) or not name:
        raise HandlerError(INVALID_VALUE, "data.describe needs a type name or a path")
    if name.isidentifier() and not name.startswith("_"):
        cls = getattr(bpy.types, name, None)
        rna = getattr(cls, "bl_rna", None) if cls is not None else None
        if rna is not None:
            return describe_rna(rna)
    try:
        path = parse_path(name)
    except PathSyntaxError as error:
        raise HandlerError(INVALID_PATH, error.message, {"position": error.position}) from None
    if path.root == "data" and len(path.steps) == 1 and path.steps[0].value not in bpy.data.bl_rna.properties.keys():
        types = [t for t in dir(bpy.types) if not t.startswith("_")]
        raise HandlerError(NOT_FOUND, f"no RNA type or bpy.data collection named {name!r}{_close(name, types)}")
    resolved = walk(path, policy)
    value = resolved.value
    if isinstance(value, COLLECTION_TYPE):
        rna = _rna_of(value)
        item = resolved.prop.fixed_type if resolved.prop is not None and getattr(resolved.prop, "fixed_type", None) is not None else None
        out = describe_rna(rna, resolved.text) if rna is not None else {
            "name": f"collection of {item.identifier if item else 'items'}",
            "description": "",
            "properties": [],
            "functions": [],
            "path": resolved.text,
        }
        if item is not None:
            out["items"] = item.identifier
        return out
    if isinstance(value, STRUCT_TYPE):
        return describe_rna(value.bl_rna, resolved.text)
    if resolved.prop is not None and hasattr(resolved.prop, "type"):
        info = _describe_prop(resolved.prop)
        return {"name": info["type"], "description": info["description"], "property": info, "properties": [], "functions": [], "path": resolved.text}
    raise HandlerError(INVALID_VALUE, f"{resolved.text} is a plain value, not a struct or collection")
