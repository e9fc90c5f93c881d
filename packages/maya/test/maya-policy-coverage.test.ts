// Every catalog command with a flag that takes a path or code is covered by the policy: its
// command is refused, or that flag is refused, or a path given to it is confined to the data
// folder. The flags are found here from the catalog data (types and names), independently of
// the generator's own classification, with a broader net; each flag the net catches that is
// neither a path nor code is listed below with the reason.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { mayaPolicyRefusal } from "../src/index.ts";
import { commandsData } from "./support/stand-in-paths.ts";

interface Param {
  name: string;
  type: string;
  variadic?: boolean;
}
const catalog = JSON.parse(readFileSync(commandsData, "utf8")) as Array<{
  name: string;
  params: Param[];
}>;

const dataDir = "/srv/dcc-data";
const CODE_TYPE = /Callable/;
const CODE_NAME = /(command|cmd|script|callback|proc|procedure|mel|python|expression)$/i;
const PATH_NAME = /(file|path|dir|directory|folder|take|url|image|movie|cache)/i;
const STRING = /\bstr\b/;

/**
 * Caught by the net, but neither a path nor code: `flag` for every command, `command.flag` for
 * one. Each says why.
 */
const NOT_PATH_OR_CODE: Record<string, string> = {
  fileFormat: "an image format name (iff, png)",
  fileformat: "an image format name",
  fileType: "a file type name",
  exportfilemode: "a paint tool's export mode",
  exportfiletype: "an image type name",
  importfilemode: "a paint tool's import mode",
  stampProfile: "a brush profile name",
  fileRuleEntry: "names a workspace file rule (a query)",
  editCommand: "names the reference edit commands to list (setAttr, parent)",
  direction: "a direction name",
  aimDirection: "a direction name",
  cuttingDirection: "a direction name",
  mapDirection: "a projection axis name",
  image: "a UI control's icon (an image resource name)",
  image1: "a tool's icon",
  image2: "a tool's icon",
  image3: "a tool's icon",
  imageOverlayLabel: "a label drawn over an icon",
  extraButtonIcon: "a UI control's icon",
  disabledImage: "a UI control's icon",
  highlightImage: "a UI control's icon",
  selectionImage: "a UI control's icon",
  selectionHighlightImage: "a UI control's icon",
  familyImage: "a menu's icon",
  defaultImage: "a panel's icon",
  toolImage1: "a tool button's icon",
  toolImage2: "a tool button's icon",
  toolImage3: "a tool button's icon",
  onImage: "a UI control's icon",
  offImage: "a UI control's icon",
  disableOnImage: "a UI control's icon",
  disableOffImage: "a UI control's icon",
  "cacheEvaluator.cacheFillMode": "a mode name",
  "cacheEvaluator.cacheFillOrder": "an order name",
  "cacheEvaluator.cacheName": "names an evaluation cache in memory",
  "cacheEvaluator.flushCache": "a mode name",
  "cacheEvaluator.hybridCacheMode": "a mode name",
  "cacheFile.cacheFileNode": "names cacheFile nodes",
  "cacheFile.cacheFormat": "a cache format name",
  "cacheFile.cacheInfo": "cache metadata text",
  "cacheFile.cacheableAttrs": "names attributes",
  "cacheFile.cacheableNode": "names nodes",
  "cacheFileCombine.connectCache": "names a cache node",
  "colorManagementPrefs.configFileVersion": "a version string",
  "diskCache.cacheType": "a cache type name (mcfp, mcj)",
  "file.saveDiskCache": "a mode (always, never)",
  "geometryAttrInfo.componentTagExpression": "a component tag selection, not MEL",
  "menuEditor.isLanguageMel": "asks which language a menu item's command is in",
  "nBase.clearCachedTextureMap": "names an attribute",
  "pluginInfo.command": "lists a plug-in's command names",
  "refresh.fileExtension": "an image extension",
  "renderSettings.genericFrameImageName": "a frame name pattern",
  "renderWindowEditor.stereoImageOrientation": "orientation names",
  "translator.fileCompression": "a compression name",
  "timeEditorAnimSource.importFbxTakes": "names takes inside an FBX file",
  "timeEditorAnimSource.takeList": "names takes",
  "timeEditorAnimSource.takesToImport": "names takes",
  "timeEditorClip.importFbxTakes": "names takes inside an FBX file",
  "timeEditorClip.takeList": "names takes",
  "timeEditorClip.takesToImport": "names takes",
  "timeEditorBakeClips.path": "a clip path in the Time Editor's tree",
  "timeEditorClip.path": "a clip path in the Time Editor's tree",
  "timeEditorClip.rootPath": "a clip path in the Time Editor's tree",
  "timeEditorClipLayer.path": "a clip path in the Time Editor's tree",
  "timeEditorClipOffset.path": "a clip path in the Time Editor's tree",
  "timeEditorClipOffset.matchPath": "a clip path in the Time Editor's tree",
  "timeEditorClipOffset.resetMatchPath": "a clip path in the Time Editor's tree",
  "timeEditorTracks.path": "a track path in the Time Editor's tree",
  "timeEditorTracks.removeTrackByPath": "a track path in the Time Editor's tree",
  "nodeTreeLister.collapsePath": "a path in a UI tree",
  "nodeTreeLister.expandPath": "a path in a UI tree",
  "nodeTreeLister.selectPath": "a path in a UI tree",
  "treeLister.collapsePath": "a path in a UI tree",
  "treeLister.expandPath": "a path in a UI tree",
  "treeLister.selectPath": "a path in a UI tree",
  "visor.path": "a folder of the Visor panel's tree (a UI that mayapy does not have)",
  "visor.folderList": "lists the Visor panel's folders",
  "visor.editFolder": "a folder of the Visor panel's tree",
  "visor.deleteFolder": "a folder of the Visor panel's tree",
};

function pathOrCodeFlags(): Array<[string, Param]> {
  const found: Array<[string, Param]> = [];
  for (const command of catalog) {
    for (const param of command.params) {
      if (param.variadic || /^arg\d+$/.test(param.name)) continue;
      const code =
        CODE_TYPE.test(param.type) || (STRING.test(param.type) && CODE_NAME.test(param.name));
      const path = STRING.test(param.type) && PATH_NAME.test(param.name);
      if (code || path) found.push([command.name, param]);
    }
  }
  return found;
}

/** A value of the flag's type that holds the string `text` wherever it takes one. */
function sampleValue(type: string, text: string): unknown {
  const tuple = /Tuple\[(.*)\]/.exec(type);
  if (tuple?.[1] !== undefined) {
    return tuple[1].split(",").map((part) => (/str|Callable/.test(part) ? text : 1));
  }
  return text;
}

describe("the policy covers every catalog flag that takes a path or code", () => {
  const flags = pathOrCodeFlags();

  it("finds them in the catalog data", () => {
    expect(flags.length).toBeGreaterThan(1000);
  });

  it("refuses each, or confines the path it is given", () => {
    const uncovered: string[] = [];
    for (const [command, param] of flags) {
      const exempt = NOT_PATH_OR_CODE[param.name] ?? NOT_PATH_OR_CODE[`${command}.${param.name}`];
      if (exempt !== undefined) continue;
      const call = (text: string) =>
        mayaPolicyRefusal(
          command,
          { args: [], flags: { [param.name]: sampleValue(param.type, text) } },
          { dataDir },
        );
      const outside = call("/etc/passwd");
      if (outside === undefined) uncovered.push(`${command}(${param.name}: ${param.type})`);
    }
    expect(uncovered).toEqual([]);
  });
});
