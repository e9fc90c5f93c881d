#!/usr/bin/env node
// Generates python/dcc_maya/policy.generated.json, the one owner of the real-Maya policy's rule
// data: read by the TypeScript adapter before a call and by the Maya side (dcc_maya/policy.py)
// as the second wall. Built from ../shared/data/maya-commands.json (every `Callable` flag, by
// type), the rules written below (commands, code-carrying string flags and file-path flags, by
// name) and the simulated scene's short flag names (loaded through tsx). Output is sorted, so
// it is stable.
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

// String flags whose value is code, found by name; the listed exceptions are names, filters or
// labels, not code.
const CODE_NAME = /(Command|Cmd|Script|Callback|Proc|Procedure)$/;
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
  /^(file|fileName|filename|path|filePath|directory|dir|folder)$|(File|FileName|Filename|Path|Directory|Dir|Folder)$/;
const PATH_EXTRA = { file: ["rename"], workspace: ["create", "baseWorkspace", "fileRule"] };
const NOT_PATH = {
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

/** Node types that hold code, refused as `createNode`/`shadingNode` types. */
const CODE_NODE_TYPES = ["expression", "script"];

/** `file` flags that load a scene (then `executeScriptNodes` is forced off). */
const LOADING_FILE_FLAGS = ["open", "i", "reference", "loadReference", "importReference"];

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
    const pathFlags = [];
    for (const param of command.params) {
      if (param.variadic || /^arg\d+$/.test(param.name)) continue;
      const { name, type } = param;
      if (type.includes("Callable")) {
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
      }
    }
    const hasPathArgs = PATH_ARGS.includes(command.name);
    if (Object.keys(refused).length > 0) flags[command.name] = sorted(refused);
    if (pathFlags.length > 0 || hasPathArgs) {
      paths[command.name] = { args: hasPathArgs, flags: pathFlags.sort() };
    }
    const sceneSpec = scene[command.name];
    if (sceneSpec?.position && !command.params.some((param) => param.name === "position")) {
      position.push(command.name);
    }
    if (flags[command.name] || paths[command.name]) {
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
    paths: sorted(paths),
    names: sorted(names),
    codeNodeTypes: CODE_NODE_TYPES,
    catalog: commands.map((command) => command.name).sort(),
    loadingFileFlags: LOADING_FILE_FLAGS,
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
