import { fileURLToPath } from "node:url";

/**
 * Absolute path of the folder that holds the `dcc_link` Python package (stdlib only, Python
 * 3.9+). `DccProcess` puts it on `PYTHONPATH` and in `DCC_LINK_PYTHON_PATH`; a host that
 * ignores `PYTHONPATH` (Blender does unless `--python-use-system-env`) should
 * `sys.path.insert(0, os.environ["DCC_LINK_PYTHON_PATH"])` in its start-up script.
 */
export function linkPythonPath(): string {
  // Both src/ and dist/ sit beside python/.
  return fileURLToPath(new URL("../python", import.meta.url));
}
