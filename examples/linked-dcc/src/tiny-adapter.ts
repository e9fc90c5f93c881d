import { mkdir, realpath } from "node:fs/promises";
import { delimiter, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { linkPythonPath } from "@dcc/link";
import {
  createLinkedAdapter,
  type LinkedAdapter,
  type LinkedHostEvent,
  readCommandSpecs,
} from "@dcc/linked-adapter";

/** Options for {@link createTinyAdapter}. */
export interface TinyAdapterOptions {
  /** The data folder: `scene.save` writes only here. Created when missing. */
  dataDir: string;
  /** The Python interpreter. Default `python3`. */
  python?: string | undefined;
  /** Sees what the tiny DCC writes. */
  onOutput?: ((text: string, stream: "stdout" | "stderr") => void) | undefined;
  /** Sees the DCC exit, restart or back off. */
  onEvent?: ((event: LinkedHostEvent) => void) | undefined;
}

// Beside src/ and dist/ alike.
const pythonDir = fileURLToPath(new URL("../python", import.meta.url));
const specs = readCommandSpecs(new URL("../python/tiny_dcc/commands.json", import.meta.url));

/**
 * The adapter of the tiny DCC: a stdlib-only Python program behind `@dcc/link`, launched on
 * `start`, restarted after a crash, ended on `close`. Its commands are declared once, in
 * `python/tiny_dcc/commands.json`; everything else comes from `@dcc/linked-adapter`.
 */
export function createTinyAdapter(options: TinyAdapterOptions): LinkedAdapter {
  const adapter = createLinkedAdapter({
    dccName: "tiny",
    displayName: "TinyDCC",
    launch: async () => {
      await mkdir(options.dataDir, { recursive: true });
      const dataDir = await realpath(resolve(options.dataDir));
      return {
        command: options.python ?? "python3",
        args: ["-S", `${pythonDir}/tiny_dcc/startup.py`],
        env: {
          PYTHONPATH: [linkPythonPath(), pythonDir].join(delimiter),
          TINY_DCC_DATA_DIR: dataDir,
        },
        // In @dcc/link's OS sandbox (on by default where it runs) the DCC sees its own Python
        // and the data folder, and nothing else of the host's files.
        sandboxPaths: { readOnly: [pythonDir], readWrite: [dataDir] },
      };
    },
    specs,
    restartNote: "with an empty scene",
    onOutput: options.onOutput,
  });
  if (options.onEvent !== undefined) adapter.onEvent(options.onEvent);
  return adapter;
}
