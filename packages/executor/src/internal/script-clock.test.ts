import { describe, expect, it } from "vitest";
import { atDeadline, ScriptClock, shiftedDeadline } from "./script-clock.ts";

/** A promise and a flag for a deadline timer's `fire`. */
function firing(): { fire: () => void; fired: Promise<void>; count: () => number } {
  let count = 0;
  let resolve: () => void = () => {};
  const fired = new Promise<void>((settle) => {
    resolve = settle;
  });
  return {
    fire: () => {
      count++;
      resolve();
    },
    fired,
    count: () => count,
  };
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

describe("ScriptClock", () => {
  it("holds the deadline off while paused, and moves it by the pause once it ends", async () => {
    const clock = new ScriptClock(Date.now() + 10_000);
    expect(clock.deadline).toBe(clock.base);
    const resume = clock.pause();
    expect(clock.deadline - clock.base).toBeGreaterThan(24 * 3600_000);
    await sleep(20);
    resume();
    const moved = clock.deadline - clock.base;
    expect(moved).toBeGreaterThanOrEqual(10);
    expect(moved).toBeLessThan(24 * 3600_000);
    // Ending a pause twice changes nothing.
    resume();
    expect(clock.deadline - clock.base).toBe(moved);
    expect(shiftedDeadline(clock.base, clock.shift)).toBe(clock.deadline);
  });

  it("runs again only when the last of overlapping pauses ends", () => {
    const clock = new ScriptClock(Date.now() + 10_000);
    const first = clock.pause();
    const second = clock.pause();
    first();
    expect(clock.deadline - clock.base).toBeGreaterThan(24 * 3600_000);
    second();
    expect(clock.deadline - clock.base).toBeLessThan(24 * 3600_000);
  });
});

describe("atDeadline", () => {
  it("fires at an unmoved deadline, once", async () => {
    const timer = firing();
    atDeadline(Date.now() + 20, undefined, 0, timer.fire);
    await timer.fired;
    expect(timer.count()).toBe(1);
  });

  it("does not fire while the clock is paused, and fires once it runs again past the deadline", async () => {
    const clock = new ScriptClock(Date.now() + 20);
    const resume = clock.pause();
    const timer = firing();
    const cancel = atDeadline(clock.base, clock.shift, 0, timer.fire);
    try {
      // Well past the base deadline: still paused, so nothing fired.
      await sleep(200);
      expect(timer.count()).toBe(0);
      resume();
      // It looks again within a second of the move; the deadline moved by the pause only.
      await timer.fired;
      expect(timer.count()).toBe(1);
    } finally {
      cancel();
    }
  });

  it("fires nothing once cancelled", async () => {
    const timer = firing();
    const cancel = atDeadline(Date.now() + 10, undefined, 0, timer.fire);
    cancel();
    await sleep(50);
    expect(timer.count()).toBe(0);
  });
});
