import {
  type FlagSpec,
  parseCall,
  parseFlagSpecs,
  type SceneCall,
  type SceneCommandSpec,
} from "./command-spec.ts";
import { sceneCommands } from "./commands/index.ts";
import { flattenNames } from "./naming.ts";
import { invalidArgument, noObject, SceneError, SceneErrorCode } from "./scene-error.ts";
import { emptySceneState, SceneGraph } from "./scene-graph.ts";
import { mergeJournal, type SceneJournal, startJournal } from "./scene-journal.ts";
import type { NodeData, SceneState } from "./scene-state.ts";

/** Options for {@link MayaScene}. */
export interface MayaSceneOptions {
  /** Folder that `file` saves to and opens from; scene files are disabled without it. */
  dataDir?: string;
  /**
   * Called at natural points of long loops (large deletes, duplicates, listings) so that a
   * cancelled request stops the command; it throws to stop. The Maya adapter passes
   * `checkCancelled` from `@dcc/cancel`.
   */
  checkpoint?: () => void;
  /** Undo queue length (Maya's `undoInfo -length`); 100 by default. */
  undoLength?: number;
}

interface UndoEntry {
  name: string;
  journal: SceneJournal;
  /** The scene's modified flag before the change. */
  modified: boolean;
}

interface Chunk {
  entry: UndoEntry;
  dirty: boolean;
  depth: number;
}

/**
 * A simulated Maya scene: an in-memory dependency graph with Maya's naming, hierarchy,
 * transforms, attributes, keys, shading, files and undo. Deterministic: no timers, no
 * randomness. {@link MayaScene.execute} runs one command with the dispatch argument convention;
 * a command that fails leaves the scene as it was.
 */
export class MayaScene {
  /** The node graph (mutable state). */
  readonly graph: SceneGraph;
  /** Folder for scene files, if any. */
  readonly dataDir: string | undefined;
  /** Current scene file, relative to the data folder; `""` while untitled. */
  sceneName = "";
  /** True when the scene changed since it was last opened, saved or cleared. */
  modified = false;
  /** `undoInfo -state`. */
  undoEnabled = true;
  /** `undoInfo -length`. */
  undoLength: number;
  /**
   * Counts undo-queue flushes (file new/open, undo turned off): an undo chunk opened before a
   * flush no longer reaches back to its start.
   */
  undoFlushes = 0;
  /** Called with each scene file `file -save` writes (its name in the data folder). */
  onFileWritten: ((name: string) => void) | undefined;
  private readonly checkpointHook: (() => void) | undefined;
  private readonly specs = new Map<
    string,
    { spec: SceneCommandSpec<MayaScene>; flags: FlagSpec[] }
  >();
  private undoStack: UndoEntry[] = [];
  private redoStack: UndoEntry[] = [];
  private chunk: Chunk | undefined;

  constructor(options: MayaSceneOptions = {}) {
    this.graph = new SceneGraph(emptySceneState());
    this.dataDir = options.dataDir;
    this.checkpointHook = options.checkpoint;
    this.undoLength = options.undoLength ?? 100;
    for (const spec of sceneCommands) {
      const flags = parseFlagSpecs(spec.flags, spec.queryable ?? false, spec.editable ?? false);
      this.specs.set(spec.name, { spec, flags });
    }
  }

  /** The commands this scene implements, sorted by name. */
  commandSpecs(): SceneCommandSpec<MayaScene>[] {
    return [...this.specs.values()]
      .map(({ spec }) => spec)
      .sort((a, b) => a.name.localeCompare(b.name));
  }

  /** True when the scene implements `name`. */
  has(name: string): boolean {
    return this.specs.has(name);
  }

  /**
   * Runs one command. `args` follows the dispatch convention: an object of flags (long or short
   * names) with positional arguments in `args`, or a plain array of positional arguments.
   * @throws {@link SceneError} with a stable `code` (NO_OBJECT, INVALID_FLAG, …).
   */
  execute(name: string, args?: unknown): unknown {
    const entry = this.specs.get(name);
    if (!entry) {
      throw new SceneError({
        code: SceneErrorCode.notImplemented,
        command: name,
        message: `${name} is not implemented by the simulated Maya scene.`,
      });
    }
    const call = parseCall(name, entry.flags, args);
    if (entry.spec.positional === undefined && call.args.length > 0) {
      throw invalidArgument(
        `${name} takes no positional arguments (got ${JSON.stringify(call.args)}); pass flags as keys of one object.`,
      );
    }
    if (!entry.spec.mutates || call.query) return entry.spec.run(this, call) ?? null;
    // Changes are journaled as they happen: a failure rolls them back, success makes them undoable.
    const journal = startJournal(this.graph.state);
    const modified = this.modified;
    this.graph.journal = journal;
    let result: unknown;
    try {
      result = entry.spec.run(this, call);
    } catch (error) {
      this.graph.journal = undefined;
      this.graph.apply(journal);
      throw error;
    }
    this.graph.journal = undefined;
    this.record({ name, journal, modified });
    return result === undefined ? null : result;
  }

  /** Calls the cancellation checkpoint (if any). */
  checkpoint(): void {
    this.checkpointHook?.();
  }

  /**
   * The objects a command acts on: the string positional arguments (arrays are flattened), or
   * the selection when there are none. Throws Maya's error when neither gives anything.
   */
  targets(call: SceneCall, options: { skip?: number; allowEmpty?: boolean } = {}): NodeData[] {
    const names = flattenNames(call.args.slice(options.skip ?? 0));
    if (names.length > 0) return names.map((name) => this.graph.resolve(name));
    const selected = this.graph.state.selection.map((id) => this.graph.node(id));
    if (selected.length === 0 && !options.allowEmpty) {
      throw invalidArgument(`${call.command}: Not enough objects or values.`);
    }
    return selected;
  }

  /** Replaces the selection. */
  select(nodes: readonly NodeData[]): void {
    this.graph.state.selection = [...new Set(nodes.map((node) => node.id))];
  }

  /** Resolves a single name (the usual Maya error when it matches nothing). */
  resolve(name: unknown): NodeData {
    if (typeof name !== "string") throw noObject(String(name));
    return this.graph.resolve(name);
  }

  /** Replaces the whole state (file new/open) and flushes undo, as Maya does. */
  replaceState(state: SceneState): void {
    this.graph.state = state;
    this.undoStack = [];
    this.redoStack = [];
    this.chunk = undefined;
    this.undoFlushes++;
  }

  /** Undoes the last command or chunk; returns its name, or `undefined` when the queue is empty. */
  undo(): string | undefined {
    const entry = this.undoStack.pop();
    if (!entry) return undefined;
    this.redoStack.push(this.restore(entry));
    return entry.name;
  }

  /** Redoes the last undone command; returns its name, or `undefined` when there is none. */
  redo(): string | undefined {
    const entry = this.redoStack.pop();
    if (!entry) return undefined;
    this.undoStack.push(this.restore(entry));
    return entry.name;
  }

  /** Names of the next command to undo and to redo (`""` when none). */
  undoNames(): { undo: string; redo: string } {
    return { undo: this.undoStack.at(-1)?.name ?? "", redo: this.redoStack.at(-1)?.name ?? "" };
  }

  /** True while an undo chunk is open and holds a change. */
  get chunkChanged(): boolean {
    return this.chunk?.dirty ?? false;
  }

  /** Opens an undo chunk: everything until the matching close undoes as one step. */
  openChunk(name: string): void {
    if (this.chunk) {
      this.chunk.depth++;
      return;
    }
    this.chunk = {
      entry: { name, journal: startJournal(this.graph.state), modified: this.modified },
      dirty: false,
      depth: 1,
    };
  }

  /**
   * Closes an undo chunk opened by {@link MayaScene.openChunk}; true when that closed the
   * outermost chunk and its changes became one undo step.
   */
  closeChunk(): boolean {
    const chunk = this.chunk;
    if (!chunk) return false;
    chunk.depth--;
    if (chunk.depth > 0) return false;
    this.chunk = undefined;
    if (chunk.dirty) this.push(chunk.entry);
    return chunk.dirty;
  }

  /** Turns undo recording on or off; turning it off flushes the queue, as in Maya. */
  setUndoEnabled(enabled: boolean): void {
    this.undoEnabled = enabled;
    if (!enabled) {
      this.undoStack = [];
      this.redoStack = [];
      this.undoFlushes++;
    }
  }

  /** Sizes of the undo and redo queues. */
  queueSizes(): { undo: number; redo: number } {
    return { undo: this.undoStack.length, redo: this.redoStack.length };
  }

  /** Applies an entry's journal; returns the entry that reverses it. */
  private restore(entry: UndoEntry): UndoEntry {
    const inverse = {
      name: entry.name,
      journal: this.graph.apply(entry.journal),
      modified: this.modified,
    };
    this.modified = entry.modified;
    return inverse;
  }

  private record(entry: UndoEntry): void {
    this.modified = true;
    if (!this.undoEnabled) return;
    this.redoStack = [];
    if (this.chunk) {
      mergeJournal(this.chunk.entry.journal, entry.journal);
      this.chunk.dirty = true;
      return;
    }
    this.push(entry);
  }

  private push(entry: UndoEntry): void {
    this.undoStack.push(entry);
    if (this.undoStack.length > this.undoLength) this.undoStack.shift();
  }
}
