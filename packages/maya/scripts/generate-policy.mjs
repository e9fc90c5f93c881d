#!/usr/bin/env node
// Generates python/dcc_maya/policy.generated.json, the one owner of the real-Maya policy's rule
// data: read by the TypeScript adapter before a call and by the Maya side (dcc_maya/policy.py)
// as the second wall. Built from ../shared/data/maya-commands.json (every `Callable` flag, by
// type; every string flag whose name says it holds code or a file path, by name and type), the
// rules written below (commands, flags that start programs or write settings, and the node
// attributes Maya runs as code or reads as file names, each with the documentation it follows)
// and the simulated scene's short flag names (loaded through tsx). Output is sorted, so it is
// stable; the product reads only the generated file, never the catalog data.
//
//   node scripts/generate-policy.mjs           write the generated file
//   node scripts/generate-policy.mjs --check   exit 1 if the committed file is out of date

import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const packageRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const source = resolve(packageRoot, "../../../shared/data/maya-commands.json");
const output = resolve(packageRoot, "python/dcc_maya/policy.generated.json");

/** Every rule, with the reason a refusal states. */
const RULES = {
  "callable-flag": "its value is a callable or script that Maya runs later",
  "code-string-flag": "its string is MEL or Python code that Maya runs",
  "runs-code": "it runs MEL or Python code",
  "outside-maya":
    "it reaches outside the scene (processes, ports, plug-ins, environment, preferences, other files)",
  "ends-maya": "it ends Maya",
  "modal-dialog": "it opens a dialog that blocks Maya's main thread until someone answers it",
  "code-nodes": "script and expression nodes hold code that Maya runs",
  "script-nodes": "opening, importing or referencing a scene never runs its script nodes",
  "data-folder": "file paths must stay inside the data folder",
  "starts-program": "it starts another program (a web browser, a shell, an editor)",
  "settings-files":
    "it writes or loads Maya's preferences, plug-in settings or workspace files (workspace.mel is MEL that Maya sources), which outlive the session",
  "code-attribute":
    "Maya runs this attribute's value as MEL or Python (at render time, on file load or on evaluation)",
  "not-in-catalog":
    "only the catalog's maya.cmds commands are served (a plug-in's commands are not checked by the policy)",
  "long-flag-names":
    "this command has refused or path flags, so only its catalog (long) names and known short names are accepted",
};

/** Commands refused outright, by rule. */
const COMMANDS = {
  "runs-code": [
    "python",
    "eval",
    "evalDeferred",
    "evalEcho",
    "evalContinue",
    "evalNoSelectNotify",
    "scriptJob",
    "scriptNode",
    "dynExpression",
    "cmdShell",
    "cmdScrollFieldExecuter",
    "runTimeCommand",
    "nameCommand",
    "callbacks",
    "scriptCtx",
    "condition",
    "expressionEditorListen",
    "repeatLast",
    "loadUI",
    "nodePreset",
  ],
  "outside-maya": [
    "commandPort",
    "loadPlugin",
    "unloadPlugin",
    "launch",
    "launchImageEditor",
    "sysFile",
    "dirmap",
    "batchRender",
    "optionVar",
    "saveToolSettings",
    "savePrefObjects",
    "scriptEditorInfo",
    "cmdFileOutput",
    "filePathEditor",
    "loadModule",
    "moduleInfo",
    "hotkey",
    "hotkeySet",
    "commandLogging",
    "getFileList",
    "dbpeek",
    "dbtrace",
    "dgInfo",
    "dgdebug",
    "dynamicLoad",
    "hwRenderLoad",
    "loadPrefObjects",
    "saveAllShelves",
    "saveShelf",
    "saveMenu",
    "saveViewportSettings",
    "openMayaPref",
    "resourceManager",
  ],
  "ends-maya": ["quit"],
  // showHelp: "Invokes a web browser to open the on-line documentation" (every mode but a query,
  // which the policy does not tell apart from the browser-opening forms); webBrowser embeds one.
  "starts-program": ["showHelp", "webBrowser"],
  // Not in the catalog (a MEL procedure in some versions), named so the refusal says why.
  "settings-files": ["savePrefs"],
  "modal-dialog": [
    "confirmDialog",
    "promptDialog",
    "fileDialog",
    "fileDialog2",
    "fileBrowserDialog",
    "layoutDialog",
    "colorEditor",
    "progressWindow",
    "framelessDialog",
  ],
};

/** Flags that start programs or write settings, refused whatever their type. */
const SETTINGS_FLAGS = {
  "starts-program": { help: ["documentation"] },
  "settings-files": {
    pluginInfo: ["savePluginPrefs", "writeRequires", "autoload", "loadPluginPrefs", "remove"],
    workspace: [
      "saveWorkspace",
      "newWorkspace",
      "openWorkspace",
      "update",
      "updateAll",
      "fileRule",
      "removeFileRuleEntry",
      "variable",
      "removeVariableEntry",
      "objectType",
      "renderType",
    ],
    windowPref: ["saveAll", "saveMainWindowState"],
    workspaceLayoutManager: ["save", "saveAs", "delete"],
    colorManagementFileRules: ["save"],
  },
};

// String flags whose value is code, found by name; the listed exceptions are names, filters or
// labels, not code.
const CODE_NAME = /^command$|(Command|Cmd|Script|Callback|Proc|Procedure)$/;
const CODE_EXTRA = { expression: ["string"], condition: ["script"], propModCtx: ["script"] };
const NOT_CODE = {
  animDisplay: ["timeCode"],
  dgtimer: ["returnCode"],
  exportEdits: ["editCommand"],
  referenceEdit: ["editCommand"],
  referenceQuery: ["editCommand"],
  file: ["editCommand"],
  pluginInfo: ["command"],
};

// File-path flags, found by name, plus the commands whose positional arguments are paths.
const PATH_NAME =
  /^(file|fileName|filename|path|filePath|directory|dir|folder|take|loadImage|writeImage|mapOutput|loadTimeline|exportPolicy|loadPolicy)$|(File|FileName|Filename|Path|Directory|Dir|Folder|Fbx|filesave|fileload|ImageName)$/;
// By command: path flags whose names do not say so. `diskCache(tempDir=)` is a boolean in the
// stubs, but MEL's `diskCache -tempDir /root` passes a folder: a string given to it is a path.
const PATH_EXTRA = {
  file: ["rename"],
  workspace: ["create", "baseWorkspace"],
  blendShape: ["export", "ip"],
  timeEditorAnimSource: ["export"],
  thumbnailCaptureComponent: ["save"],
  workspaceLayoutManager: ["i"],
  diskCache: ["tempDir"],
  animContextManager: ["mediaFileURL"],
  glRender: ["imageName"],
  iprEngine: ["iprImage"],
  psdEditTextureFile: ["snapShotImage", "addChannelImage"],
  selLoadSettings: ["proxySetFiles"],
  assembly: ["input"],
  makebot: ["input", "output"],
  profiler: ["load", "output"],
  poseInterpolator: ["importPoses", "exportPoses"],
};
const NOT_PATH = {
  renderSettings: ["genericFrameImageName"],
  nodeTreeLister: ["collapsePath", "expandPath", "selectPath"],
  treeLister: ["collapsePath", "expandPath", "selectPath"],
  timeEditorBakeClips: ["path"],
  timeEditorClip: ["path", "rootPath"],
  timeEditorClipLayer: ["path"],
  timeEditorClipOffset: ["path", "matchPath", "resetMatchPath"],
  timeEditorTracks: ["path", "removeTrackByPath"],
  visor: ["path", "editFolder", "deleteFolder"],
};
const PATH_ARGS = ["file", "workspace", "exportEdits", "deformerWeights"];

/**
 * Node attributes whose value Maya runs as MEL or Python, by node type (long name: short name).
 * `anyNode` entries have names distinctive enough to refuse on any node, which is all the
 * TypeScript wall (no scene) can check; the Maya side also checks the node's type and resolves
 * short names and aliases through Maya. Sources: Autodesk's "Pre-Render MEL and Post-Render MEL
 * scripts" and "Pre and post render layer MEL scripts" (render globals), the script node's
 * reference ("The before scripts are executed when a file is loaded ... the after script"), the
 * expression node (its text is `internalExpression`, written `.ixp` in .ma files), an asset's
 * `rmbCommand` (its right-click callback) and the camera's `homeCommand` (MEL run by
 * `viewSet -home`).
 */
const CODE_ATTRIBUTES = [
  {
    nodeTypes: ["renderGlobals"],
    anyNode: true,
    attributes: {
      preMel: "pram",
      postMel: "poam",
      preRenderLayerMel: "prlm",
      postRenderLayerMel: "polm",
      preRenderMel: "prm",
      postRenderMel: "pom",
      preFurRenderMel: "pfrm",
      postFurRenderMel: "pfom",
    },
  },
  { nodeTypes: ["script"], anyNode: false, attributes: { before: "b", after: "a" } },
  { nodeTypes: ["expression"], anyNode: true, attributes: { internalExpression: "ixp" } },
  // An asset's right-click callback ("Assign a custom command or menu to an asset").
  {
    nodeTypes: ["container", "dagContainer", "containerBase"],
    anyNode: true,
    attributes: { rmbCommand: null },
  },
  {
    nodeTypes: ["camera"],
    anyNode: true,
    attributes: { homeCommand: "hc" },
    // Every saved scene sets its cameras' homeCommand to this; a scene may carry it.
    sceneValue: "^viewSet -\\w+ %camera$",
  },
];

/**
 * Node attributes that hold file names Maya reads or writes (Maya flags such attributes
 * `usedAsFilename`; the Maya side also asks `attributeQuery -usedAsFilename` for any other).
 * A short name is listed only where it is known; the Maya side resolves the rest through Maya.
 */
const FILENAME_ATTRIBUTES = [
  {
    nodeTypes: ["file", "psdFileTex", "movie"],
    anyNode: true,
    attributes: { fileTextureName: "ftn" },
  },
  { nodeTypes: ["renderGlobals"], anyNode: true, attributes: { imageFilePrefix: "ifp" } },
  { nodeTypes: ["cacheFile"], anyNode: true, attributes: { cachePath: null } },
  { nodeTypes: ["cacheFile", "diskCache"], anyNode: false, attributes: { cacheName: null } },
  { nodeTypes: ["diskCache"], anyNode: true, attributes: { hiddenCacheName: null } },
  { nodeTypes: ["gpuCache"], anyNode: true, attributes: { cacheFileName: null } },
  { nodeTypes: ["imagePlane"], anyNode: false, attributes: { imageName: null } },
  { nodeTypes: ["audio"], anyNode: false, attributes: { filename: null } },
  { nodeTypes: ["dynGlobals"], anyNode: true, attributes: { cacheDirectory: null } },
  {
    nodeTypes: ["container", "dagContainer", "containerBase"],
    anyNode: true,
    attributes: { templatePath: null },
  },
];

/**
 * Commands whose positional arguments name plugs (`node.attr`), and which of them a value or a
 * connection goes into: `setAttr` sets its first; `connectAttr` connects into its second;
 * `addAttr`, `aliasAttr` and `copyAttr` name attributes in every plug argument (and in
 * `nameFlags`, whose commands take only catalog or known short flag names).
 */
const PLUG_COMMANDS = {
  setAttr: { target: [0], sets: true, nameFlags: [] },
  connectAttr: { target: [1], connects: true, nameFlags: [] },
  addAttr: { target: "all", nameFlags: ["longName", "shortName"] },
  aliasAttr: { target: "all", nameFlags: [] },
  copyAttr: { target: "all", nameFlags: ["attribute"] },
};

/** Node types that hold code, refused as `createNode`/`shadingNode` types. */
const CODE_NODE_TYPES = ["expression", "script"];

/** `file` flags that load a scene (then `executeScriptNodes` is forced off). */
const LOADING_FILE_FLAGS = ["open", "i", "reference", "loadReference", "importReference"];

/**
 * What a scene must not bring in (checked in a .ma file's text before it loads, and in the scene
 * after any load): script nodes of a type that runs after loading (4 software render, 5 software
 * frame render, 7 time changed) or with an `after` script ("The after script will execute when
 * the node is deleted regardless of the scriptType value", and when the file is closed), any
 * expression (MEL run on every evaluation), and render-time MEL. Types 0 (demand), 1 and 2
 * (open/close, kept off by `executeScriptNodes=False`), 3 and 6 (Maya's UI and scene
 * configuration nodes) load. A .ma file is read before it loads; any scene is checked after.
 */
const SCENE_CODE = {
  scriptTypesRunningLater: [4, 5, 7],
  // A .ma file is MEL that Maya sources: only the commands Maya writes into one load (Autodesk's
  // "File Formats": the Maya ASCII commands, plus rename -uid, dataStructure and applyMetadata of
  // newer versions), with literal arguments (no backquotes, variables or procedure calls).
  maCommands: [
    "addAttr",
    "applyMetadata",
    "connectAttr",
    "createNode",
    "currentUnit",
    "dataStructure",
    "disconnectAttr",
    "file",
    "fileInfo",
    "lockNode",
    "parent",
    "relationship",
    "rename",
    "requires",
    "select",
    "setAttr",
  ],
};

function sceneShortNames() {
  // The simulated scene knows Maya's short names for its commands.
  const program = `import("./src/scene/maya-scene.ts").then((m) => {
    const specs = new m.MayaScene({}).commandSpecs();
    const out = {};
    for (const spec of specs) {
      const names = {};
      for (const part of spec.flags.split(/\\s+/).filter(Boolean)) {
        const [long, short] = part.split(":")[0].split("|");
        if (short) names[short] = long;
      }
      if (spec.queryable) names.q = "query";
      if (spec.editable) names.e = "edit";
      out[spec.name] = { names, position: spec.flags.split(/\\s+/).some((p) => p.split(":")[0] === "position") };
    }
    process.stdout.write(JSON.stringify(out));
  });`;
  return JSON.parse(
    execFileSync(process.execPath, ["--conditions=@dcc/source", "--import", "tsx", "-e", program], {
      cwd: packageRoot,
      encoding: "utf8",
      timeout: 120_000,
    }),
  );
}

function sorted(object) {
  return Object.fromEntries(Object.entries(object).sort(([a], [b]) => (a < b ? -1 : 1)));
}

/** The generated file's text. */
export function policyText() {
  const commands = JSON.parse(readFileSync(source, "utf8"));
  const scene = sceneShortNames();
  const refusedCommands = {};
  for (const [rule, names] of Object.entries(COMMANDS)) {
    for (const name of names) refusedCommands[name] = rule;
  }
  const flags = {};
  const queryFlags = {};
  const paths = {};
  const names = {};
  const position = [];
  let callableCount = 0;
  const callableCommands = new Set();
  for (const command of commands) {
    for (const param of command.params) {
      if (param.type.includes("Callable")) {
        callableCount += 1;
        callableCommands.add(command.name);
      }
    }
    if (refusedCommands[command.name]) continue;
    const refused = {};
    const queryable = [];
    const pathFlags = [];
    for (const param of command.params) {
      if (param.variadic || /^arg\d+$/.test(param.name)) continue;
      const { name, type } = param;
      const settingsRule = Object.keys(SETTINGS_FLAGS).find((rule) =>
        SETTINGS_FLAGS[rule][command.name]?.includes(name),
      );
      if (settingsRule !== undefined) {
        refused[name] = settingsRule;
        // Reading the setting (`workspace -q -fileRule`) writes nothing; an action flag is
        // refused in query mode too.
        if (type.startsWith("Queryable[")) queryable.push(name);
      } else if (type.includes("Callable")) {
        refused[name] = "callable-flag";
      } else if (
        type.includes("str") &&
        (CODE_NAME.test(name) || CODE_EXTRA[command.name]?.includes(name)) &&
        !NOT_CODE[command.name]?.includes(name)
      ) {
        refused[name] = "code-string-flag";
      } else if (
        type.includes("str") &&
        (PATH_NAME.test(name) || PATH_EXTRA[command.name]?.includes(name)) &&
        !NOT_PATH[command.name]?.includes(name)
      ) {
        pathFlags.push(name);
      } else if (PATH_EXTRA[command.name]?.includes(name)) {
        pathFlags.push(name);
      }
      // A query of code names the flag to read (`q=True, command=True`): nothing runs.
      if (refused[name] === "callable-flag" || refused[name] === "code-string-flag") {
        queryable.push(name);
      }
    }
    const hasPathArgs = PATH_ARGS.includes(command.name);
    if (Object.keys(refused).length > 0) flags[command.name] = sorted(refused);
    if (queryable.length > 0) queryFlags[command.name] = queryable.sort();
    if (pathFlags.length > 0 || hasPathArgs) {
      paths[command.name] = { args: hasPathArgs, flags: pathFlags.sort() };
    }
    const sceneSpec = scene[command.name];
    if (sceneSpec?.position && !command.params.some((param) => param.name === "position")) {
      position.push(command.name);
    }
    // A command naming attributes in flags (addAttr -ln, copyAttr -at) is policed too, so no
    // unknown short name carries one past the check; setAttr and connectAttr keep every name.
    const namesAttributes = (PLUG_COMMANDS[command.name]?.nameFlags.length ?? 0) > 0;
    if (flags[command.name] || paths[command.name] || namesAttributes) {
      // Only the names Maya's catalog lists (and the short ones the scene knows) get through.
      const accepted = {};
      for (const param of command.params) {
        if (!param.variadic && !/^arg\d+$/.test(param.name)) accepted[param.name] = param.name;
      }
      // Every command with query or edit mode takes Maya's q and e.
      if (accepted.query) accepted.q = "query";
      if (accepted.edit) accepted.e = "edit";
      for (const [short, long] of Object.entries(sceneSpec?.names ?? {})) {
        if (accepted[long]) accepted[short] = long;
      }
      names[command.name] = sorted(accepted);
    }
  }
  // A name in the lists that the catalog does not have is a mistake in the lists.
  const byName = new Map(commands.map((command) => [command.name, command]));
  const lists = [...Object.values(SETTINGS_FLAGS), PATH_EXTRA, NOT_PATH, NOT_CODE, CODE_EXTRA];
  for (const list of lists) {
    for (const [name, flagNames] of Object.entries(list)) {
      const known = new Set(byName.get(name)?.params.map((param) => param.name));
      for (const flag of flagNames) {
        if (!known.has(flag)) throw new Error(`generate-policy: ${name} has no flag '${flag}'`);
      }
    }
  }
  const data = {
    about:
      "Generated by packages/maya/scripts/generate-policy.mjs from maya-commands.json; do not edit.",
    counts: {
      callableFlags: callableCount,
      callableCommands: callableCommands.size,
      refusedCommands: Object.keys(refusedCommands).length,
    },
    rules: RULES,
    commands: sorted(refusedCommands),
    flags: sorted(flags),
    queryFlags: sorted(queryFlags),
    paths: sorted(paths),
    names: sorted(names),
    codeNodeTypes: CODE_NODE_TYPES,
    codeAttributes: CODE_ATTRIBUTES,
    filenameAttributes: FILENAME_ATTRIBUTES,
    plugCommands: PLUG_COMMANDS,
    catalog: commands.map((command) => command.name).sort(),
    loadingFileFlags: LOADING_FILE_FLAGS,
    sceneCode: SCENE_CODE,
    positionConvenience: position.sort(),
  };
  // One line per command keeps the file small and its diffs readable.
  const section = (value) =>
    value && typeof value === "object" && !Array.isArray(value)
      ? `{\n${Object.entries(value)
          .map(([key, item]) => `  ${JSON.stringify(key)}: ${JSON.stringify(item)}`)
          .join(",\n")}\n }`
      : JSON.stringify(value);
  const body = Object.entries(data)
    .map(([key, value]) => ` ${JSON.stringify(key)}: ${section(value)}`)
    .join(",\n");
  return `{\n${body}\n}\n`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const text = policyText();
  if (process.argv.includes("--check")) {
    if (readFileSync(output, "utf8") !== text) {
      console.error(`${output} is out of date: run node scripts/generate-policy.mjs`);
      process.exit(1);
    }
  } else {
    writeFileSync(output, text);
  }
}
