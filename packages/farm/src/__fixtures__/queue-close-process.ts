// A process that submits a job to the farm, then (told "close" on stdin, once the test has
// stopped Redis) closes its queue and must then exit on its own, with nothing left running.
import { randomUUID } from "node:crypto";
import { createFarmJobQueue } from "../farm-job-queue.ts";

const queue = createFarmJobQueue({
  redis: { url: process.argv[2] as string },
  pools: ["maya"],
  commandTimeoutMs: 2000,
});
await queue.submit({ jobId: randomUUID(), dccName: "maya", code: "return 1;" });
process.stdout.write("submitted\n");
process.stdin.once("data", () => {
  // The test's pipe is not what this process waits for.
  process.stdin.destroy();
  void queue.close().then(() => process.stdout.write("closed\n"));
});
