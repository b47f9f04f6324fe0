import { describe, expect, it } from "vitest";
import { PERIOD_PRESETS, presetOf, presetPeriod } from "./period";

describe("statement periods", () => {
  it("turn each preset into its dates on a given day", () => {
    const on = "2026-11-28";
    expect(Object.fromEntries(PERIOD_PRESETS.map((preset) => [preset, presetPeriod(preset, on)]))).toEqual({
      allTime: { start: null, end: null },
      thisMonth: { start: "2026-11-01", end: "2026-11-30" },
      lastMonth: { start: "2026-10-01", end: "2026-10-31" },
      thisQuarter: { start: "2026-10-01", end: "2026-12-31" },
      thisYear: { start: "2026-01-01", end: "2026-12-31" },
      lastYear: { start: "2025-01-01", end: "2025-12-31" },
    });
  });

  it("cross a year and end months on their last day (February of a leap year too)", () => {
    expect(presetPeriod("lastMonth", "2026-01-15")).toEqual({ start: "2025-12-01", end: "2025-12-31" });
    expect(presetPeriod("thisQuarter", "2026-01-01")).toEqual({ start: "2026-01-01", end: "2026-03-31" });
    expect(presetPeriod("thisMonth", "2028-02-10")).toEqual({ start: "2028-02-01", end: "2028-02-29" });
    expect(presetPeriod("lastMonth", "2027-03-31")).toEqual({ start: "2027-02-01", end: "2027-02-28" });
  });

  it("name the preset a period is, or custom", () => {
    expect(presetOf({ start: null, end: null }, "2026-11-28")).toBe("allTime");
    expect(presetOf({ start: "2026-11-01", end: "2026-11-30" }, "2026-11-28")).toBe("thisMonth");
    expect(presetOf({ start: "2026-11-03", end: "2026-11-30" }, "2026-11-28")).toBe("custom");
  });
});
