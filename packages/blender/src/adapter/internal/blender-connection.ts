import type { LinkAccess } from "@dcc/link";

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
  /**
   * What a sandbox thread needs to open its own connection to this Blender, and the key that
   * changes when Blender restarts; undefined while it is not ready or has a restart to report.
   */
  laneAccess?(): { readonly access: LinkAccess; readonly key: string } | undefined;
  /** Releases the connection (and ends a launched Blender). */
  close(): Promise<void>;
  readonly pid: number | undefined;
  readonly launches: number;
  readonly sessionDir: string | undefined;
  readonly output: string;
}
