// Runs in a worker thread: reports what the ambient cancel context looks like there.
import { parentPort } from "node:worker_threads";
import { checkCancelled, currentCancelToken, currentJob, currentJobId } from "../index.ts";

let checkThrew = false;
try {
  checkCancelled();
} catch {
  checkThrew = true;
}
parentPort?.postMessage({
  token: currentCancelToken() ?? null,
  job: currentJob() ?? null,
  jobId: currentJobId() ?? null,
  checkThrew,
});
