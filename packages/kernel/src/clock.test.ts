import { describe, expect, it } from "vitest";
import { createManualClock, systemClock } from "./clock";

describe("systemClock", () => {
  it("reads the real time", () => {
    const before = Date.now();
    const now = systemClock.now().getTime();
    expect(now).toBeGreaterThanOrEqual(before);
    expect(now).toBeLessThanOrEqual(Date.now());
  });
});

describe("createManualClock", () => {
  it("starts at 2026-01-01T00:00:00Z by default, or where it is told", () => {
    expect(createManualClock().now().toISOString()).toBe("2026-01-01T00:00:00.000Z");
    expect(createManualClock(new Date("2030-05-06T07:08:09.010Z")).now().toISOString()).toBe(
      "2030-05-06T07:08:09.010Z",
    );
  });

  it("stands still until advanced or set", () => {
    const clock = createManualClock();
    expect(clock.now()).toEqual(clock.now());
    clock.advance(1_500);
    expect(clock.now().toISOString()).toBe("2026-01-01T00:00:01.500Z");
    clock.advance(-500);
    expect(clock.now().toISOString()).toBe("2026-01-01T00:00:01.000Z");
    clock.set(new Date("2027-02-03T04:05:06.000Z"));
    expect(clock.now().toISOString()).toBe("2027-02-03T04:05:06.000Z");
  });

  it("hands out copies: changing a returned Date (or the start) does not move the clock", () => {
    const start = new Date("2026-01-01T00:00:00Z");
    const clock = createManualClock(start);
    start.setUTCFullYear(2000);
    const now = clock.now();
    now.setUTCFullYear(1999);
    expect(clock.now().toISOString()).toBe("2026-01-01T00:00:00.000Z");
  });
});
