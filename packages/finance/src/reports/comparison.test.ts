import { describe, expect, it } from "vitest";
import { comparedFigure, comparedPeriod } from "./comparison";

describe("compared periods", () => {
  it.each([
    // whole months: the same number of months before, and the same months a year earlier
    ["previousPeriod", "2026-02-01", "2026-02-28", "2026-01-01", "2026-01-31"],
    ["previousPeriod", "2026-01-01", "2026-03-31", "2025-10-01", "2025-12-31"],
    ["previousYear", "2025-02-01", "2025-02-28", "2024-02-01", "2024-02-29"],
    ["previousYear", "2024-02-01", "2024-02-29", "2023-02-01", "2023-02-28"],
    // any other range: as many days before; the same dates a year earlier (29 Feb → 28 Feb)
    ["previousPeriod", "2026-03-10", "2026-03-19", "2026-02-28", "2026-03-09"],
    ["previousPeriod", "2026-03-05", "2026-03-05", "2026-03-04", "2026-03-04"],
    ["previousYear", "2024-02-29", "2024-03-10", "2023-02-28", "2023-03-10"],
  ] as const)("%s of %s…%s is %s…%s", (compare, start, end, startDate, endDate) => {
    expect(comparedPeriod(compare, start, end)).toEqual({ startDate, endDate });
  });
});

describe("a figure beside its compared value", () => {
  it("gives the change and the change in percent of the compared value, two decimals", () => {
    expect(comparedFigure("150", "100")).toEqual({ value: "100", change: "50", changePercent: "50.00" });
    expect(comparedFigure("0", "300")).toEqual({ value: "300", change: "-300", changePercent: "-100.00" });
    expect(comparedFigure("2", "3")).toEqual({ value: "3", change: "-1", changePercent: "-33.33" });
    expect(comparedFigure("1", "3")).toEqual({ value: "3", change: "-2", changePercent: "-66.67" });
    // against a negative figure the percentage is of its size: −100 → −50 is +50 %
    expect(comparedFigure("-50", "-100")).toEqual({ value: "-100", change: "50", changePercent: "50.00" });
    expect(comparedFigure("90071992547409930", "1")).toMatchObject({
      changePercent: "9007199254740992900.00",
    });
  });

  it("has no percentage when the compared value is zero", () => {
    expect(comparedFigure("500", "0")).toEqual({ value: "0", change: "500", changePercent: null });
    expect(comparedFigure("0", "0")).toEqual({ value: "0", change: "0", changePercent: null });
  });
});
