import type { DccSandboxMode } from "./dcc-process-options.ts";

const modes: readonly string[] = ["auto", "on", "off"];

/** Options for {@link dccSandboxMode}. */
export interface DccSandboxModeOptions {
  /** Where `DCC_SANDBOX` is read. Default `process.env`. */
  env?: Readonly<Record<string, string | undefined>> | undefined;
  /** What the option is called in an error, e.g. `--sandbox`. Default `sandbox`. */
  optionName?: string | undefined;
}

/**
 * The sandbox mode a launch runs with, the one place that rule lives: `option` when given (an
 * API option or a command-line flag), else the environment variable `DCC_SANDBOX` (an empty
 * value counts as unset), else `auto`. `DccProcess` applies it to every launch, so adapters
 * pass their option through unset and `DCC_SANDBOX` reaches every launched DCC; a command line
 * calls it to refuse a bad value before anything starts.
 * @throws {TypeError} when the value chosen is not `auto`, `on` or `off`, naming where it came from.
 */
export function dccSandboxMode(
  option?: string | undefined,
  options: DccSandboxModeOptions = {},
): DccSandboxMode {
  const fromEnvironment = (options.env ?? process.env)["DCC_SANDBOX"];
  const mode = option ?? (fromEnvironment === "" ? undefined : fromEnvironment) ?? "auto";
  if (!modes.includes(mode)) {
    const what = option === undefined ? "DCC_SANDBOX" : (options.optionName ?? "sandbox");
    throw new TypeError(`${what} must be "auto", "on" or "off", not ${JSON.stringify(mode)}`);
  }
  return mode as DccSandboxMode;
}
