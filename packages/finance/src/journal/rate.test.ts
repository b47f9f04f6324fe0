import { describe, expect, it } from "vitest";
import { multiplyRate, multiplyRateWithin } from "./rate";

/*
 * amount × rate for a journal line or a revalued balance (docs/decisions/0100-manual-journals-and-revaluation.md):
 * exact, rounded half away from zero; a value beyond int64 is null for the journal form and the services
 * (a field error on the rate), never a throw while a form renders.
 */
describe("multiplyRateWithin", () => {
  it("values exactly, rounding half away from zero", () => {
    expect(multiplyRateWithin(100000n, "12650")).toBe(1265000000n);
    expect(multiplyRateWithin(5n, "0.5")).toBe(3n);
    expect(multiplyRateWithin(-5n, "0.5")).toBe(-3n);
  });

  it("is null beyond int64, where multiplyRate throws", () => {
    expect(multiplyRateWithin(1000000000000n, "999999999999")).toBeNull();
    expect(multiplyRateWithin(-100000000000n, "999999999999")).toBeNull();
    expect(() => multiplyRate(1000000000000n, "999999999999")).toThrow(RangeError);
    // The largest value that fits still fits.
    expect(multiplyRateWithin(9223372036854775807n, "1")).toBe(9223372036854775807n);
  });
});
