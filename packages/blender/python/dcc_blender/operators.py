"""``blender.op``: run a bpy.ops operator under the host's policy and report what changed."""

from __future__ import annotations

import difflib
import glob
import os
import re
import shutil
import sys
from typing import Any, Dict, List, Optional

import bpy
from _bpy import ops as _ops
from dcc_link import HandlerError

from . import compat, import_references, path_options, stored_paths
from . import policy as policy_module
from .data_api import _blend_dir
from .paths import Step, format_path
from .reports import capture_reports
from .rna_walk import INVALID_ARGS, NOT_FOUND, _close
from .values import array_value_problem, ref

POLL_FAILED = "POLL_FAILED"
OPERATOR_FAILED = "OPERATOR_FAILED"

_OPERATOR_ID = re.compile(r"^[a-z][a-z0-9_]*\.[a-z][a-z0-9_]*$")
_known: set = set()
# File loads never run the file's scripts, whatever the caller asks.
_NO_SCRIPTS = ("wm.open_mainfile", "wm.revert_mainfile")
_CURRENT_FILE_SAVES = ("wm.save_mainfile", "wm.save_as_mainfile")


def _refresh_known() -> None:
    _known.clear()
    for idname in _ops.dir():
        module, _, name = idname.partition("_OT_")
        _known.add(f"{module.lower()}.{name}")


def operator_exists(operator: str) -> bool:
    """True when ``operator`` (``mesh.primitive_cube_add``) is registered (add-ons included)."""
    if operator not in _known:
        _refresh_known()
    return operator in _known


def _view3d_override() -> Optional[Dict[str, Any]]:
    # Under -b the start-up file's window and 3D view still exist, unopened: borrowing them
    # makes operators that need a 3D view pass poll().
    wm = bpy.context.window_manager
    for window in wm.windows:
        screen = window.screen
        for area in screen.areas:
            if area.type == "VIEW_3D":
                region = next((r for r in area.regions if r.type == "WINDOW"), None)
                if region is not None:
                    return {"window": window, "screen": screen, "area": area, "region": region}
    return None


def _refusal(refusal: policy_module.PolicyRefusal) -> HandlerError:
    return HandlerError("POLICY", refusal.message, {"rule": refusal.rule})


_SUBTYPES = {"file": "FILE_PATH", "folder": "DIR_PATH", "name": "FILE_NAME"}
# Checked first: a file name is checked inside ``directory``, and an option relative to the
# written file (glTF's ``export_texture_dir``) inside ``filepath``'s folder.
_FIRST = {"directory": 0, "filepath": 1}


def check_arguments(policy, operator: str, rna, args: Dict[str, Any]) -> Dict[str, Any]:
    """Returns the arguments to pass: every option that names a file or a folder (by subtype,
    name or description: see ``path_options``) checked, Blender's own path options made
    absolute, scripts forced off."""
    out = dict(args)
    props = rna.properties
    for name, value in args.items():
        problem = array_value_problem(props.get(name), value)
        if problem is not None:
            raise HandlerError(INVALID_ARGS, f"{operator} argument {name} {problem}")
    directory = None
    file_folder = None
    try:
        for name in sorted(args, key=lambda key: _FIRST.get(key, 2)):
            prop = props.get(name)
            value = out[name]
            if prop is None:
                continue
            if prop.type == "COLLECTION" and name == "files" and isinstance(value, list):
                for index, item in enumerate(value):
                    file_name = item.get("name") if isinstance(item, dict) else None
                    if isinstance(file_name, str) and file_name:
                        policy.check_path(f"{operator} argument files[{index}].name", file_name, "FILE_NAME", directory)
                continue
            if prop.type == "STRING" and (name == "name" or name.endswith("_name")):
                policy.check_name(f"{operator} argument {name}", value)
            kind = path_options.operator_option_kind(operator, prop)
            if kind is None or not isinstance(value, str) or value == "":
                continue
            label = f"{operator} argument {name}"
            if kind == "name":
                policy.check_path(label, value, "FILE_NAME", directory)
                continue
            # Found by name or description: passed on as given, so it may name a folder too.
            subtype = _SUBTYPES[kind] if prop.subtype in path_options.SUBTYPE_KINDS else "DIR_PATH"
            base = _blend_dir(policy) if value.startswith("//") else None
            checked = policy.check_path(label, value, subtype, base)
            if prop.subtype in path_options.SUBTYPE_KINDS:
                out[name] = checked
            elif file_folder is not None and not value.startswith("//") and not os.path.isabs(value):
                # Found by its name or description: Blender may take it relative to the written
                # file rather than the data folder, so it must lie inside from both; it is passed
                # on as given.
                policy.check_path(label, value, subtype, file_folder)
            if name == "directory":
                directory = checked
            elif name == "filepath":
                file_folder = os.path.dirname(checked)
        if operator.startswith("file.unpack_"):
            policy.check_unpack(operator, out.get("method", "USE_LOCAL"))
        if operator in _CURRENT_FILE_SAVES and not out.get("filepath") and bpy.data.filepath:
            policy.check_path(f"{operator} (the current file)", bpy.data.filepath)
    except policy_module.PolicyRefusal as refusal:
        raise _refusal(refusal) from None
    if operator in _NO_SCRIPTS:
        out["use_scripts"] = False
    return out


# Collections whose items have types of their own (PointLight, TextCurve, ShaderNodeTree): their
# types are kept in the snapshot, so a removed item is reported with the type it was created with.
_SUBTYPED = ("lights", "curves", "textures", "node_groups")
# Opening a file can create or remove thousands of data-blocks: a report lists this many of each
# and counts the rest, so it stays small enough to return from a script.
MAX_LISTED = 100


def snapshot() -> Dict[str, Any]:
    """Names of every bpy.data collection (Blender lists them in C: no Python work per item),
    and the types of subtyped items."""
    data = bpy.data
    names = {name: getattr(data, name).keys() for name in _data_collections()}
    types = {
        name: {block.name: block.bl_rna.identifier for block in getattr(data, name)}
        for name in _SUBTYPED
        if name in names
    }
    return {"names": names, "types": types}


_collections: list = []
_fixed: dict = {}


def _fixed_types() -> Dict[str, Any]:
    """Each data collection's item type (``objects`` -> ``Object``), read once."""
    if not _fixed:
        names = set(_data_collections())
        _fixed.update({p.identifier: p.fixed_type for p in bpy.data.bl_rna.properties if p.identifier in names})
    return _fixed


def _data_collections():
    if not _collections:
        _collections.extend(compat.data_collections(frozenset({"window_managers"})))
    return _collections


def changes(before: Dict[str, Any]) -> Dict[str, Any]:
    """What an operator created and removed, the selection, the active object and the mode."""
    data = bpy.data
    created, removed = [], []
    names, types = before["names"], before["types"]
    fixed = _fixed_types()
    for name, listed in names.items():
        collection = getattr(data, name)
        now = collection.keys()
        if now == listed:  # compared in C; only a collection that changed is looked at per item
            continue
        new, old = frozenset(now), frozenset(listed)
        for item in sorted(new - old):
            block = collection.get(item)
            if block is not None:
                created.append(ref(block))
        base = fixed[name].identifier if fixed.get(name) is not None else name
        for item in sorted(old - new):
            kind = types.get(name, {}).get(item, base)
            removed.append({"type": kind, "name": item, "path": format_path("data", [Step("attr", name), Step("key", item)])})
    context = bpy.context
    active = getattr(context, "active_object", None)
    selected = getattr(context, "selected_objects", None) or []
    return {
        "created": created,
        "removed": removed,
        "selected": [o.name for o in selected],
        "active": active.name if active is not None else None,
        "mode": context.mode,
    }


def bound_lists(report: Dict[str, Any]) -> Dict[str, Any]:
    """Cuts ``created``, ``removed`` and ``selected`` to :data:`MAX_LISTED` entries each; ``more``
    counts what was left out of each, by list."""
    more = {}
    for key in ("created", "removed", "selected"):
        items = report.get(key)
        if isinstance(items, list) and len(items) > MAX_LISTED:
            more[key] = len(items) - MAX_LISTED
            report[key] = items[:MAX_LISTED]
    if more:
        report["more"] = more
    return report


def _object_parts() -> Dict[int, tuple]:
    """The modifiers, constraints and material slots of the active and selected objects: what
    ``object.modifier_add`` and the like add or remove, which are no data-blocks of their own."""
    context = bpy.context
    objects = list(getattr(context, "selected_objects", None) or [])
    active = getattr(context, "active_object", None)
    if active is not None and active not in objects:
        objects.append(active)
    return {
        obj.as_pointer(): (
            obj,
            obj.name,
            {m.as_pointer(): (m.bl_rna.identifier, m.name) for m in obj.modifiers},
            {c.as_pointer(): (c.bl_rna.identifier, c.name) for c in obj.constraints},
            len(obj.material_slots),
        )
        for obj in objects
    }


def _parts_changed(before: Dict[int, tuple]) -> tuple:
    """References to the modifiers, constraints and material slots added since ``before``, and to
    the modifiers and constraints gone since (applied, removed), with the path each had."""
    created, removed = [], []
    for obj, name, modifiers, constraints, slots in before.values():
        try:
            obj.name
        except ReferenceError:  # the object itself was removed: the data-block list says so
            continue
        for attr, had in (("modifiers", modifiers), ("constraints", constraints)):
            items = getattr(obj, attr)
            now = {item.as_pointer() for item in items}
            created.extend(ref(item) for item in items if item.as_pointer() not in had)
            for pointer, (kind, part) in had.items():
                if pointer not in now:
                    steps = [Step("attr", "objects"), Step("key", name), Step("attr", attr), Step("key", part)]
                    removed.append({"type": kind, "name": part, "path": format_path("data", steps)})
        created.extend(ref(slot) for slot in list(obj.material_slots)[slots:])
    return created, removed


def resolve_operator(operator: Any):
    """(bpy.ops function, its RNA type) or HandlerError."""
    if not isinstance(operator, str) or not _OPERATOR_ID.match(operator):
        raise HandlerError(INVALID_ARGS, f"operator must look like 'mesh.primitive_cube_add', not {operator!r}")
    if not operator_exists(operator):
        raise HandlerError(NOT_FOUND, f"no operator {operator}{_close(operator, sorted(_known))}")
    module, name = operator.split(".")
    function = getattr(getattr(bpy.ops, module), name)
    return function, function.get_rna_type()


def run_operator(function, operator: str, args: Dict[str, Any], reports: Optional[List[str]] = None):
    """Runs plainly if poll() passes, else under the 3D-view override, else POLL_FAILED; the
    reports Blender prints (``Info: …``, ``Warning: …``) go to ``reports``."""
    override = None
    if not function.poll():
        override = _view3d_override()
        passes = False
        if override is not None:
            with bpy.context.temp_override(**override):
                passes = function.poll()
        if not passes:
            reason = ""
            try:
                function(**args)  # does not run: poll fails again and Blender says why
            except RuntimeError as error:
                reason = _poll_reason(str(error))
            except (TypeError, ValueError) as error:
                raise HandlerError(INVALID_ARGS, f"{operator}: {str(error).strip()}") from None
            mode = bpy.context.mode
            raise HandlerError(
                POLL_FAILED,
                f"{operator}.poll() failed: {reason or 'context is incorrect'} (mode {mode})",
                {"mode": mode},
            )
    sink = reports if reports is not None else []
    try:
        with capture_reports(sink):
            if override is not None:
                with bpy.context.temp_override(**override):
                    return function(**args)
            return function(**args)
    except (TypeError, ValueError) as error:
        raise HandlerError(INVALID_ARGS, argument_problem(operator, function.get_rna_type(), args, str(error).strip())) from None
    except RuntimeError as error:
        raise HandlerError(OPERATOR_FAILED, f"{operator}: {str(error).strip()}", {"reports": _reports(str(error))}) from None


_BAD_ENUM = re.compile(r'enum "(?P<value>.*?)" not found in \((?P<items>.*)\)', re.S)


def argument_problem(operator: str, rna, args: Dict[str, Any], message: str) -> str:
    """Blender's text for a bad argument; for an enum value it does not know, one that names the
    argument and the values closest to what was given, by id and by label (``SUBDIVISION`` ->
    ``SUBSURF``, "Subdivision Surface"; ``none`` -> ``DESELECT`` is not guessed, ``select`` ->
    ``SELECT`` is)."""
    match = _BAD_ENUM.search(message)
    if match is None:
        return f"{operator}: {message}"
    value = match.group("value")
    # Blender's own list is the one that applies now (some operators' values depend on the scene).
    values = re.findall(r"'([^']*)'", match.group("items"))
    for name, given in args.items():
        prop = rna.properties.get(name)
        if prop is None or prop.type != "ENUM":
            continue
        if value not in (given if isinstance(given, (list, tuple, set)) else [given]):
            continue
        labels = {item.identifier: item.name for item in prop.enum_items}
        guesses = _enum_guesses(value, values, labels)
        text = f"{operator} argument {name} {value!r} is not one of its values"
        if guesses:
            named = ", ".join(f"{g} ({labels[g]})" if _tells_more(labels.get(g), g) else g for g in guesses)
            text += f"; did you mean {named}?"
        shown = ", ".join(values[:12]) + ("" if len(values) <= 12 else f", ... ({len(values)} in all)")
        return f"{text} Values: {shown}"
    return f"{operator}: {message}"


def _tells_more(label: Optional[str], identifier: str) -> bool:
    return bool(label) and label.upper().replace(" ", "_") != identifier


def _enum_guesses(value: str, values: List[str], labels: Dict[str, str]) -> List[str]:
    upper = value.upper().replace(" ", "_")
    if upper in values:
        return [upper]
    words = [w for w in re.split(r"[\s_]+", value.lower()) if w]
    by_label = [v for v in values if words and all(w in labels.get(v, "").lower() for w in words)]
    close = difflib.get_close_matches(upper, values, n=3, cutoff=0.6)
    return list(dict.fromkeys(by_label[:3] + close))[:3]


def _missing_part(operator: str, args: Dict[str, Any]) -> None:
    """A modifier or constraint operator that Blender cancelled without a word because the name it
    was given is not on the object: NOT_FOUND, naming what the object has."""
    obj = getattr(bpy.context, "active_object", None)
    if obj is None:
        return
    for key, kind in (("modifier", "modifier"), ("constraint", "constraint")):
        name = args.get(key)
        if not isinstance(name, str):
            continue
        if key == "constraint" and args.get("owner") == "BONE":
            bone = getattr(bpy.context, "active_pose_bone", None)
            if bone is None:
                return
            owner, items = f"bone {bone.name!r} of {obj.name!r}", bone.constraints
        elif key == "modifier" and operator.startswith("object.gpencil_modifier"):
            owner, items = f"object {obj.name!r}", obj.grease_pencil_modifiers
        else:
            owner, items = f"object {obj.name!r}", getattr(obj, f"{kind}s")
        if name in items:
            return
        names = list(items.keys())
        has = f"it has {', '.join(repr(n) for n in names)}" if names else f"it has no {kind}s"
        close = difflib.get_close_matches(name, names, n=1, cutoff=0.5)
        guess = f"; did you mean {close[0]!r}?" if close else ""
        raise HandlerError(NOT_FOUND, f"{operator}: no {kind} {name!r} on the active {owner} ({has}){guess}")


def _poll_reason(message: str) -> str:
    # "Operator bpy.ops.x.y.poll() failed, context is incorrect" or "... .poll() Reason"
    text = message.strip()
    match = re.search(r"\.poll\(\)\s*(?:failed,\s*)?(.*)$", text, re.S)
    return (match.group(1) if match else text).strip()


def _reports(message: str):
    return [line.strip() for line in message.strip().splitlines() if line.strip()]


def _writes_file(operator: str) -> bool:
    # By id: `wm.save_as_mainfile`, `image.save_as`, `export_scene.fbx`, `wm.obj_export`.
    return "save" in operator or "export" in operator


def _prepare_output(operator: str, args: Dict[str, Any], given: Dict[str, Any]) -> None:
    """For a save or an export: refuses a ``filepath`` that names only a folder (Blender's
    exporters fail on it with a traceback, some after changing the scene), and creates the
    missing folder of a file path (already checked to lie inside the data folder), where Blender
    would fail with a message about its temporary file."""
    filepath = args.get("filepath")
    if not _writes_file(operator) or not isinstance(filepath, str) or not filepath:
        return
    written = given.get("filepath")
    if (isinstance(written, str) and written.endswith(("/", os.sep))) or os.path.isdir(filepath):
        raise HandlerError(
            INVALID_ARGS,
            f"{operator} argument filepath {written!r} names a folder: give a file name in it, e.g. {os.path.join(str(written).rstrip('/'), 'scene')!r} with its extension",
        )
    folder = os.path.dirname(filepath)
    if folder and not os.path.isdir(folder):
        try:
            os.makedirs(folder, exist_ok=True)
        except OSError as error:
            raise HandlerError(INVALID_ARGS, f"{operator}: cannot create the folder {folder!r}: {error.strerror}") from None


def blender_op(params: dict, call, policy) -> Dict[str, Any]:
    operator = params.get("operator")
    args = params.get("args") or {}
    if not isinstance(args, dict):
        raise HandlerError(INVALID_ARGS, "args must be an object of keyword arguments")
    if isinstance(operator, str):
        try:
            policy.check_operator(operator)
        except policy_module.PolicyRefusal as refusal:
            raise _refusal(refusal) from None
    function, rna = resolve_operator(operator)
    try:
        policy.check_reviewed(operator)
    except policy_module.PolicyRefusal as refusal:
        raise _refusal(refusal) from None
    given = args
    try:
        args = check_arguments(policy, operator, rna, args)
        _check_stored(policy, operator, rna, args)
        if "import" in operator:
            _check_imports(policy, operator, args)
        if "export" in operator:
            _check_names(policy, operator)
    except HandlerError:
        raise
    except Exception as error:  # noqa: BLE001 - a check that breaks refuses: it fails closed
        raise HandlerError(
            "POLICY",
            f"{operator} is refused: the host's checks could not be made ({type(error).__name__}: {error})",
            {"rule": policy_module.DATA_FOLDER_RULE},
        ) from None
    _prepare_output(operator, args, given)
    if operator == "render.render":
        from .render import render_operator

        tree_before = _tree_states(policy.data_dir)
        out = render_operator(function, args, call, policy)
        found = [policy.relative(path) for path in _changed(tree_before, _tree_states(policy.data_dir))]
        out["files"] = sorted(set(out.get("files", [])) | set(found))
        return out
    before = snapshot()
    parts = _object_parts()
    output = _output_path(operator, args)
    files_before = _file_states(output)
    tree_before = _tree_states(policy.data_dir) if _may_write(operator, args, given) else None
    reports: List[str] = []
    meanings = stored_paths.relative_meanings(policy) if operator in _CURRENT_FILE_SAVES else None
    kept = keep_before_load(policy, operator)
    try:
        result = run_operator(function, operator, args, reports)
    except BaseException:
        discard_kept(kept)
        raise
    if meanings:
        _repair_after_save(policy, function, operator, args, meanings, reports)
    if operator in _LOADS_BLEND:
        _check_loaded(policy, operator, before, kept)
    if "CANCELLED" in result:
        _missing_part(operator, args)
    out = {"result": sorted(result)}
    if reports:
        out["reports"] = reports
    out.update(changes(before))
    parts_created, parts_removed = _parts_changed(parts)
    out["created"].extend(parts_created)
    out["removed"].extend(parts_removed)
    bound_lists(out)
    written = _written_files(output, files_before)
    if tree_before is not None:
        written = sorted(set(written or []) | set(_changed(tree_before, _tree_states(policy.data_dir))))
    if written is not None:
        out["files"] = [policy.relative(path) for path in written]
    return out


def _repair_after_save(policy, function, operator: str, args, meanings, reports: List[str]) -> None:
    """A save that moved the file re-bases the ``//`` paths Blender does not remap: those now
    outside are pointed back at what they meant and the file is written again, so neither the
    open file nor the one on disk holds a path that leads out of the data folder."""
    repaired = stored_paths.repair_after_save(policy, meanings)
    if not repaired:
        return
    again = dict(args)
    if operator == "wm.save_as_mainfile":
        again["filepath"] = bpy.data.filepath
    run_operator(function, operator, again, [])
    reports.append(f"Info: relative paths kept pointing where they did: {', '.join(repaired)}")
    left = stored_paths.refusal(policy, operator, stored_paths.blend_dir())
    if left is not None:
        raise _refusal(left)


# Operators that bring in a .blend's data-blocks with the paths stored in them.
_LOADS_BLEND = ("wm.open_mainfile", "wm.revert_mainfile", "wm.recover_auto_save", "wm.append", "wm.link")
# Of those, the ones that replace the open file: the scene before is kept in a private copy.
_REPLACES_FILE = ("wm.open_mainfile", "wm.revert_mainfile", "wm.recover_auto_save")


def keep_before_load(policy, operator: str) -> Optional[Dict[str, Any]]:
    """Before an operator that replaces the open file: how to bring the scene back should the
    loaded file be refused. A saved file without unsaved changes is opened again from its path;
    anything else is kept in a hidden copy beside it (in the data folder for an unsaved scene),
    where its ``//`` paths mean what they meant, removed again once used."""
    if operator not in _REPLACES_FILE:
        return None
    if bpy.data.filepath and not bpy.data.is_dirty:
        return {"path": bpy.data.filepath, "copy": False}
    folder = os.path.dirname(bpy.data.filepath) if bpy.data.filepath else policy.data_dir
    copy = os.path.join(folder, f".dcc-before-load-{os.getpid()}.blend")
    bpy.ops.wm.save_as_mainfile(filepath=copy, copy=True, relative_remap=False, check_existing=False)
    return {"path": copy, "copy": True}


def _remove_copy(kept: Optional[Dict[str, Any]]) -> None:
    if kept is not None and kept["copy"]:
        for path in (kept["path"], kept["path"] + "1"):
            try:
                os.remove(path)
            except OSError:
                pass


def _restore(policy, kept: Optional[Dict[str, Any]]) -> str:
    """Closes the loaded file and brings back the scene before (factory settings when nothing was
    kept, or what was kept cannot be opened or no longer passes the check: a file changed on disk
    since); says which it did."""
    if kept is not None:
        try:
            bpy.ops.wm.open_mainfile(filepath=kept["path"], load_ui=False, use_scripts=False)
            again = stored_paths.refusal(policy, "restore", stored_paths.blend_dir())
            if again is not None:
                raise RuntimeError(f"the file before is refused too: {again.message}")
            if not kept["copy"]:
                return f"the loaded file was closed and {policy.relative(kept['path'])!r} opened again"
            return (
                "the loaded file was closed and the scene before brought back, unsaved: "
                "save it with wm.save_as_mainfile to keep it"
            )
        except Exception as error:  # noqa: BLE001 - any failure falls back to factory settings below
            print(f"dcc_blender: the scene before the load cannot be brought back: {error}", file=sys.stderr, flush=True)
        finally:
            _remove_copy(kept)
    bpy.ops.wm.read_factory_settings(use_empty=False)
    return "the loaded file was closed and factory settings loaded"


def discard_kept(kept: Optional[Dict[str, Any]]) -> None:
    """Removes the copy :func:`keep_before_load` made, once the load is accepted."""
    _remove_copy(kept)


def _check_loaded(policy, operator: str, before: Dict[str, Any], kept: Optional[Dict[str, Any]]) -> None:
    """After a .blend is opened (or its data appended): a stored path outside the data folder
    (a file made elsewhere) is refused before anything reads it. So is a file the check itself
    fails on: the check fails closed. An opened file is closed and the scene before brought back;
    appended or linked data-blocks are removed again."""
    try:
        refused = stored_paths.refusal(policy, operator, stored_paths.blend_dir())
    except Exception as error:  # noqa: BLE001 - whatever breaks the check refuses the file
        refused = policy_module.PolicyRefusal(
            policy_module.DATA_FOLDER_RULE,
            f"{operator} is refused (rule {policy_module.DATA_FOLDER_RULE!r}): the paths stored in "
            f"the loaded file could not be checked ({type(error).__name__}: {error})",
        )
    if refused is None:
        discard_kept(kept)
        return
    undone = None
    if operator in ("wm.append", "wm.link"):
        try:
            created = []
            for name, old in before["names"].items():
                collection = getattr(bpy.data, name)
                created.extend(collection[item] for item in set(collection.keys()) - set(old))
            bpy.data.batch_remove(created)
            undone = "the data-blocks it added were removed again"
        except Exception:  # noqa: BLE001 - then the whole file goes
            undone = None
    if undone is None:
        undone = _restore(policy, kept)
    refused.message += f" ({undone})"
    raise _refusal(refused)


def _check_imports(policy, operator: str, args: Dict[str, Any]) -> None:
    """Before an importer runs: the files each imported file names inside itself (a glTF's
    buffers, an OBJ's .mtl and its maps) must lie inside the data folder."""
    paths = []
    directory = args.get("directory")
    files = args.get("files")
    if isinstance(directory, str) and directory and isinstance(files, list) and files:
        paths = [os.path.join(directory, item["name"]) for item in files if isinstance(item, dict) and isinstance(item.get("name"), str)]
    filepath = args.get("filepath")
    if isinstance(filepath, str) and filepath:
        filepath = filepath if os.path.isabs(filepath) else policy.resolve(filepath)
        paths.append(filepath)
        if not paths[:-1] and isinstance(files, list):
            # glTF's importer takes its `files` beside `filepath`.
            folder = os.path.dirname(filepath)
            paths += [os.path.join(folder, item["name"]) for item in files if isinstance(item, dict) and isinstance(item.get("name"), str)]
    try:
        for path in paths:
            import_references.check_import(policy, operator, path)
    except policy_module.PolicyRefusal as refusal:
        raise _refusal(refusal) from None


# Named parts of data-blocks that exporters write out, besides the data-blocks' own names.
_NAMED_PARTS = ("vertex_groups", "uv_layers", "attributes", "key_blocks", "bones", "modifiers")


def _check_names(policy, operator: str) -> None:
    """Before an export: no data-block, nor any of its named parts, may have a name holding a
    control character (a file made elsewhere may hold one), which would start a new line or
    field in what the exporter writes."""
    try:
        for collection in compat.data_collections(frozenset({"window_managers", "screens", "workspaces"})):
            for block in getattr(bpy.data, collection):
                label = format_path("data", [Step("attr", collection), Step("key", block.name)])
                policy.check_name(f"{operator}: the name of {label}", block.name)
                for part in _NAMED_PARTS:
                    items = getattr(block, part, None)
                    if isinstance(items, bpy.types.bpy_prop_collection):
                        for item in items:
                            policy.check_name(f"{operator}: the name of {label}.{part}", getattr(item, "name", ""))
    except policy_module.PolicyRefusal as refusal:
        raise _refusal(refusal) from None


# Operators that write or read files at paths stored in the .blend, by id.
_USES_STORED = re.compile(r"save|export|render|bake|reload|pack|mixdown|proxy|denoise|merge|flipbook|write|cache")


def _check_stored(policy, operator: str, rna, args: Dict[str, Any]) -> None:
    """Before an operator that uses stored paths, and before a save (which re-bases ``//`` paths
    when it moves the file without remapping them): every stored path must resolve inside."""
    if not _USES_STORED.search(operator):
        return
    base = stored_paths.blend_dir()
    if operator in _CURRENT_FILE_SAVES:
        target = args.get("filepath") or bpy.data.filepath
        # Blender's own default: wm.save_mainfile does not remap, wm.save_as_mainfile does.
        remapped = args.get("relative_remap", rna.properties["relative_remap"].default)
        if target and not (remapped and bpy.data.filepath):
            base = os.path.dirname(target)
    refused = stored_paths.refusal(policy, operator, base)
    if refused is not None:
        raise _refusal(refused)


# Operators that write files other than their ``filepath`` (textures beside an export, images
# at their stored paths, bakes, caches), by id.
_WRITES = re.compile(r"save|export|render|bake|write|cache|mixdown|proxy|denoise|merge|pack|output|flipbook")
# A data folder larger than this is not scanned whole: the report then lists the files beside
# the written one only.
MAX_SCANNED = 20000


def _may_write(operator: str, args: Dict[str, Any], given: Dict[str, Any]) -> bool:
    return bool(_WRITES.search(operator))


def _tree_states(root: str) -> Optional[Dict[str, tuple]]:
    """Every file under ``root`` with its inode, size and modification time, or None past
    :data:`MAX_SCANNED` files."""
    states: Dict[str, tuple] = {}
    stack = [root]
    while stack:
        folder = stack.pop()
        try:
            entries = list(os.scandir(folder))
        except OSError:
            continue
        for entry in entries:
            try:
                if entry.is_dir(follow_symlinks=False):
                    stack.append(entry.path)
                elif entry.is_file(follow_symlinks=False):
                    stat = entry.stat(follow_symlinks=False)
                    states[entry.path] = (stat.st_ino, stat.st_size, stat.st_mtime_ns)
            except OSError:
                continue
        if len(states) > MAX_SCANNED:
            return None
    return states


def _changed(before: Optional[Dict[str, tuple]], after: Optional[Dict[str, tuple]]) -> List[str]:
    if before is None or after is None:
        return []
    return [path for path, state in after.items() if before.get(path) != state]


def _output_path(operator: str, args: Dict[str, Any]) -> Optional[str]:
    """The file a save or an export writes (``wm.save_mainfile`` without one: the current file)."""
    if not _writes_file(operator):
        return None
    filepath = args.get("filepath")
    if (not isinstance(filepath, str) or not filepath) and operator in _CURRENT_FILE_SAVES:
        filepath = bpy.data.filepath
    return filepath if isinstance(filepath, str) and filepath else None


def _file_states(filepath: Optional[str]) -> Optional[Dict[str, tuple]]:
    """What is on disk now at ``filepath`` and beside it with the same stem (``scene.glb``,
    ``scene.bin``, ``scene.blend1``): each file's inode, size and modification time."""
    if filepath is None:
        return None
    stem = os.path.splitext(filepath)[0]
    states = {}
    for path in {filepath, *glob.glob(glob.escape(stem) + ".*")}:
        try:
            stat = os.stat(path)
        except OSError:
            continue
        if os.path.isfile(path):
            states[path] = (stat.st_ino, stat.st_size, stat.st_mtime_ns)
    return states


def _written_files(filepath: Optional[str], before: Optional[Dict[str, tuple]]) -> Optional[List[str]]:
    """For a save or an export: the files it wrote, new or changed since ``before``, the extension
    an exporter added (``scene`` -> ``scene.glb``) and its side files (``scene.bin``) included;
    files of the same stem that it left alone (an earlier export's) are not. None otherwise."""
    if filepath is None or before is None:
        return None
    after = _file_states(filepath) or {}
    return sorted(path for path, state in after.items() if before.get(path) != state)
