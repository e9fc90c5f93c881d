// Benchmark for @dcc/cancel: what a cooperative check costs when nothing is cancelled, beside a
// bare `signal.aborted` read measured in the same run. Imports the built package.
import {
  CancelToken,
  checkCancelled,
  checkDccCancelled,
  withCancelToken,
  withCurrentJob,
} from "@dcc/cancel";

const iterations = 2_000_000;
const rounds = 9;

/** Median ns/op of `rounds` timed loops of `iterations` calls of `body`, after a warm-up. */
function measure(body) {
  body(iterations);
  const samples = [];
  for (let round = 0; round < rounds; round++) {
    globalThis.gc?.();
    const started = process.hrtime.bigint();
    body(iterations);
    samples.push(Number(process.hrtime.bigint() - started) / iterations);
  }
  samples.sort((a, b) => a - b);
  return samples[Math.floor(samples.length / 2)];
}

// One loop function per measured call, so each call site stays monomorphic and no measurement
// pays for the others' type feedback.

/** Baseline: a bare `signal.aborted` read per iteration. */
function baselineLoop(signal) {
  return (count) => {
    for (let index = 0; index < count; index++) {
      if (signal.aborted) throw new Error("the baseline signal must not be aborted");
    }
  };
}

function checkCancelledLoop(count) {
  for (let index = 0; index < count; index++) checkCancelled();
}

function checkDccCancelledLoop(count) {
  for (let index = 0; index < count; index++) checkDccCancelled();
}

/** @param {{ root: string, log: (line: string) => void }} context */
export async function run({ log }) {
  const goal = 100;
  const token = new CancelToken({ jobId: "bench" });
  const signal = new AbortController().signal;
  const rows = [];
  const row = (metric, ours, baseline) => {
    log(`${metric}: ${ours.toFixed(1)} ns/op (signal.aborted ${baseline.toFixed(1)} ns/op)`);
    rows.push({
      metric,
      ours,
      baseline,
      unit: "ns/op",
      goal: `< ${goal} ns/op`,
      pass: ours < goal,
    });
  };

  // Outside any request, with the storage already active (as in a server that has served one):
  // the case for code that may also run from a REPL, a test or a queued callback.
  withCancelToken(null, () => {});
  const outsideBaseline = measure(baselineLoop(signal));
  row("checkCancelled(), no token installed", measure(checkCancelledLoop), outsideBaseline);

  // Inside a request whose token is live.
  withCancelToken(token, () => {
    const baseline = measure(baselineLoop(token.signal));
    row("checkCancelled(), live token installed", measure(checkCancelledLoop), baseline);
    withCurrentJob({ cancelled: false, jobId: "job" }, () => {
      row(
        "checkDccCancelled(), live token and job",
        measure(checkDccCancelledLoop),
        measure(baselineLoop(token.signal)),
      );
    });
  });
  return rows;
}
