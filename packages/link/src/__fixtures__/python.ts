// The interpreter and script the tests run as a host.
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";

/** The test host: plain Python, no DCC (see its docstring). */
export const testHostScript = fileURLToPath(new URL("./test_host.py", import.meta.url));

/**
 * The real interpreter behind `python3` (a version manager's shim can cost seconds per start
 * on a loaded machine), or `DCC_LINK_TEST_PYTHON` (to run the suite on another version), run
 * with `-S`: the link's Python side needs nothing from site-packages.
 */
export const python: string = execFileSync(
  process.env["DCC_LINK_TEST_PYTHON"] ?? "python3",
  ["-c", "import sys; print(sys.executable)"],
  { encoding: "utf8" },
).trim();

/** Interpreter flags for every test host. */
export const pythonArgs: readonly string[] = ["-S"];
