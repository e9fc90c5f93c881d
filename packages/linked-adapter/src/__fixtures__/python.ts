// The interpreter and script the kit's tests run as a DCC.
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";

/** The test host (see its docstring). */
export const kitHostScript = fileURLToPath(new URL("./kit_host.py", import.meta.url));

/** The command specs the test host registers. */
export const kitSpecsFile = new URL("./kit-commands.json", import.meta.url);

/** The real interpreter behind `python3` (or `DCC_LINK_TEST_PYTHON`); run with `-S`. */
export const python: string = execFileSync(
  process.env["DCC_LINK_TEST_PYTHON"] ?? "python3",
  ["-c", "import sys; print(sys.executable)"],
  { encoding: "utf8" },
).trim();
