/** What the adapter needs of its Blender: a launched, supervised process or an attached one. */
export interface BlenderConnection {
  /** Connects (launching Blender first when the adapter owns it). */
  start(signal?: AbortSignal): Promise<void>;
  /** Calls a link method; failures are `BlenderCommandError`s. */
  call(
    command: string,
    method: string,
    params: Readonly<Record<string, unknown>>,
    signal: AbortSignal,
  ): Promise<unknown>;
  /** Releases the connection (and ends a launched Blender). */
  close(): Promise<void>;
  readonly pid: number | undefined;
  readonly launches: number;
  readonly sessionDir: string | undefined;
  readonly output: string;
}
