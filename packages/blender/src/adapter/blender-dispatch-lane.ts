// The sandbox thread's side of the Blender adapter's dispatch lane: its own link connection to
// Blender, on which a script's read-only data commands run without the main thread. Loaded by
// URL in the sandbox worker (see `DispatchLane`); nothing imports it.
import type { DispatchLaneConnection, OpenDispatchLane } from "@dcc/executor";
import { type LinkAccess, openSyncLink } from "@dcc/link";

/** What the adapter hands the sandbox thread. */
export interface BlenderLaneData {
  readonly access: LinkAccess;
}

/** Opens the lane: a `SyncLink` to Blender. */
export const openDispatchLane: OpenDispatchLane = async (data, options) => {
  const { access } = data as BlenderLaneData;
  const link = await openSyncLink(access, { signal: options.signal, timeoutMs: 2000 });
  const connection: DispatchLaneConnection = {
    call(name, argsJson, wait) {
      // Only an object of keyword arguments is sent as it is; anything else (no arguments, an
      // array) goes through the main thread, whose handler explains or fills it in.
      if (argsJson.charCodeAt(0) !== 0x7b) return { status: "unavailable" };
      const outcome = link.call(name, argsJson, wait);
      switch (outcome.status) {
        case "result":
          return { status: "value", value: outcome.result };
        case "error": {
          const { code, message, completion } = outcome;
          return outcome.data === undefined
            ? { status: "error", code, message, completion }
            : { status: "error", code, message, completion, data: outcome.data };
        }
        case "stopped":
          return { status: "stopped" };
        default:
          return { status: "unavailable" };
      }
    },
    close: () => link.close(),
  };
  return connection;
};
