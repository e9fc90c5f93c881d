// A lane module for the dispatch-lane tests, loaded in the sandbox thread: it answers
// `lane.echo` itself, fails `lane.fail` the way a handler would, waits in `lane.wait` until told
// to stop (creating the file `data.waiting` names first, so a test can see it began), declines
// `lane.decline` (the main thread makes it) and breaks on `lane.broken`.
import { writeFileSync } from "node:fs";
import type {
  DispatchLaneConnection,
  DispatchLaneReply,
  OpenDispatchLane,
} from "../dispatch-lane.ts";

export const openDispatchLane: OpenDispatchLane = async (data) => {
  const { refuse, host, waiting } = data as { refuse?: boolean; host: string; waiting?: string };
  if (refuse === true) throw new Error("the test lane refuses to open");
  let closed = false;
  const sleeper = new Int32Array(new SharedArrayBuffer(4));
  const connection: DispatchLaneConnection = {
    call(name, argsJson, wait): DispatchLaneReply {
      if (closed) return { status: "unavailable" };
      if (name === "lane.echo") {
        return { status: "value", value: { via: "lane", host, args: JSON.parse(argsJson) } };
      }
      if (name === "lane.fail") {
        return {
          status: "error",
          code: "NOT_FOUND",
          message: "no such thing",
          completion: "complete",
          data: { closest: ["thing"] },
        };
      }
      if (name === "lane.decline") return { status: "declined" };
      if (name === "lane.wait") {
        if (waiting !== undefined) writeFileSync(waiting, "");
        while (!wait.shouldStop()) Atomics.wait(sleeper, 0, 0, 5);
        return { status: "stopped" };
      }
      return { status: "unavailable" };
    },
    close() {
      closed = true;
    },
  };
  return connection;
};
