// The few things the rules ask the scene, each one read-only maya.cmds query through the
// adapter's own way of running commands (the simulated scene, or the link to Maya).

/**
 * Runs one read-only `maya.cmds` query with the dispatch convention (flags as keys, positional
 * arguments in `args`) and answers its result; bounded by `signal`.
 */
export type MayaSceneQuery = (command: string, args: unknown, signal: AbortSignal) => unknown;

/** What the rules know of the adapter they belong to. */
export interface RuleHost {
  /** Reads the scene. */
  readonly query: MayaSceneQuery;
  /** A path as the person asked should read it (e.g. relative to the data folder). */
  readonly displayPath: (path: string) => string;
  /**
   * What `file -save` does in an untitled scene: `fails` (the simulated scene refuses it), or
   * `unknown` (Maya may save under a default name, over a file that exists: ask).
   */
  readonly untitledSave: "fails" | "unknown";
}

/** What the rules read from the scene for one call. */
export class SceneReads {
  readonly #query: MayaSceneQuery;
  readonly #signal: AbortSignal;

  constructor(host: RuleHost, signal: AbortSignal) {
    this.#query = host.query;
    this.#signal = signal;
  }

  /** The selected objects (`ls -selection`). */
  async selection(): Promise<string[]> {
    const answer = await this.#query("ls", { selection: true }, this.#signal);
    return Array.isArray(answer) ? answer.filter((name) => typeof name === "string") : [];
  }

  /** Whether the open scene has unsaved changes (`file -query -modified`). */
  async modified(): Promise<boolean> {
    return (await this.#query("file", { query: true, modified: true }, this.#signal)) === true;
  }

  /** The open scene's file, `""` while untitled (`file -query -sceneName`). */
  async sceneName(): Promise<string> {
    const answer = await this.#query("file", { query: true, sceneName: true }, this.#signal);
    return typeof answer === "string" ? answer : "";
  }

  /** Whether a file exists where the host would write it (`file -query -exists`). */
  async exists(path: string): Promise<boolean> {
    const answer = await this.#query(
      "file",
      { args: [path], query: true, exists: true },
      this.#signal,
    );
    return answer === true;
  }

  /** The current frame (`currentTime -query`), if the host says. */
  async currentFrame(): Promise<number | undefined> {
    const answer = await this.#query("currentTime", { query: true }, this.#signal);
    return typeof answer === "number" && Number.isFinite(answer) ? answer : undefined;
  }
}
