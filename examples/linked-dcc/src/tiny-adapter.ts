import {
  createLinkedAdapter,
  type LinkedAdapter,
  type LinkedHostEvent,
  prepareLinkedLaunch,
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
const specs = readCommandSpecs(new URL("../python/tiny_dcc/commands.json", import.meta.url));

/**
 * The adapter of the tiny DCC: a stdlib-only Python program behind `@dcc/link`, launched on
 * `start`, restarted after a crash, ended on `close`; each script one undo step. Its commands
 * are declared once, in `python/tiny_dcc/commands.json`; the rest comes from the kit.
 */
export function createTinyAdapter(options: TinyAdapterOptions): LinkedAdapter {
  const adapter = createLinkedAdapter({
    dccName: "tiny",
    displayName: "TinyDCC",
    // In @dcc/link's OS sandbox (on by default where it runs) the DCC sees its own Python and
    // the data folder, and nothing else of the host's files.
    launch: () =>
      prepareLinkedLaunch({
        displayName: "TinyDCC",
        executable: options.python ?? "python3",
        args: ["-S", new URL("../python/tiny_dcc/startup.py", import.meta.url)],
        pythonPath: [new URL("../python", import.meta.url)],
        dataDir: options.dataDir,
      }),
    specs,
    transaction: true,
    restartNote: "with an empty scene",
    onOutput: options.onOutput,
  });
  if (options.onEvent !== undefined) adapter.onEvent(options.onEvent);
  return adapter;
}
