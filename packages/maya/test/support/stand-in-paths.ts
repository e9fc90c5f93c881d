// Where the Maya side and its stand-in live, for the tests.
import { fileURLToPath } from "node:url";

const python = (path: string): string =>
  fileURLToPath(new URL(`../../python/${path}`, import.meta.url));

/** The stand-in `mayapy` launcher (plain python3 with the stand-in `maya` package). */
export const standInMayapy: string = python("tests/stand_in/bin/mayapy");
/** The stand-in interactive Maya (an idle loop; loads plug-ins when told on stdin). */
export const standInMayaGui: string = python("tests/stand_in/bin/maya-gui");
/** The headless start-up script. */
export const startupScript: string = python("dcc_maya/startup.py");
/** The scripted plug-in. */
export const pluginPath: string = python("plug-ins/dcc_maya_link.py");
/** The catalog data the stand-in is strict about (tests may read ../shared/data). */
export const commandsData: string = fileURLToPath(
  new URL("../../../../../shared/data/maya-commands.json", import.meta.url),
);
