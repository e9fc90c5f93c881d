// The sandbox thread's side of a linked adapter's dispatch lane: its own link connection to the
// DCC, on which a script's read-only commands run without the main thread. Loaded by URL in the
// sandbox worker (see `DispatchLane`); only the adapter names it.
import type { DispatchLaneConnection, OpenDispatchLane } from "@dcc/executor";
import { type LinkAccess, openSyncLink } from "@dcc/link";

/** What the adapter hands the sandbox thread. */
export interface LinkedLaneData {
  readonly access: LinkAccess;
}

/** Opens the lane: a `SyncLink` to the DCC. */
export const openDispatchLane: OpenDispatchLane = async (data, options) => {
  const { access } = data as LinkedLaneData;
  const link = await openSyncLink(access, { signal: options.signal, timeoutMs: 2000 });
  const connection: DispatchLaneConnection = {
    call(name, argsJson, wait) {
      // An object of keyword arguments is sent as it is, and none as `{}` (as the handler
      // does); anything else (an array, a number) goes through the main thread, whose handler
      // explains what it takes.
      const params = argsJson === "null" ? "{}" : argsJson;
      if (params.charCodeAt(0) !== 0x7b) return { status: "declined" };
      const outcome = link.call(name, params, wait);
      switch (outcome.status) {
        case "result":
          return { status: "value", value: outcome.result };
        case "error":
          // The host's code, message, data and completion, as the handler's error carries them.
          return outcome;
        case "stopped":
          return { status: "stopped" };
        case "refused":
          return { status: "declined" };
        default:
          return { status: "unavailable" };
      }
    },
    close: () => link.close(),
  };
  return connection;
};
