import { describe, expect, it } from "vitest";
import {
  addMinor,
  applyRate,
  formatMinor,
  INT64_MAX,
  INT64_MIN,
  minorToMajorString,
  parseMinor,
  ZCurrencyCode,
  ZMinorAmount,
  ZPositiveMinorAmount,
  ZRate,
} from "./money";

describe("int64 bounds", () => {
  it("are PostgreSQL's bigint range", () => {
    expect(INT64_MAX).toBe(9_223_372_036_854_775_807n);
    expect(INT64_MIN).toBe(-9_223_372_036_854_775_808n);
  });
});

describe("parseMinor", () => {
  it.each([
    ["0", 0n],
    ["1", 1n],
    ["-1", -1n],
    ["1250000", 1_250_000n],
    ["9007199254740993", 9_007_199_254_740_993n], // above 2^53: exact, unlike a JSON number
    ["9223372036854775807", INT64_MAX],
    ["-9223372036854775808", INT64_MIN],
  ])("parses %s", (value, expected) => {
    expect(parseMinor(value)).toBe(expected);
  });

  it.each([
    ["9223372036854775808", "one above int64"],
    ["-9223372036854775809", "one below int64"],
    ["99999999999999999999", "20 digits"],
    ["-0", "negative zero"],
    ["007", "leading zeros"],
    ["00", "leading zeros"],
    ["-01", "leading zeros"],
    ["1.5", "a fraction"],
    ["1.0", "a fraction"],
    ["1e3", "an exponent"],
    ["+5", "a plus sign"],
    [" 5", "blanks"],
    ["5 ", "blanks"],
    ["", "nothing"],
    ["-", "a bare sign"],
    ["0x10", "hex"],
    ["1_000", "separators"],
    ["١٢", "non-ASCII digits"],
  ])("refuses %s (%s)", (value) => {
    expect(parseMinor(value)).toBeNull();
  });

  it("round-trips with formatMinor", () => {
    for (const amount of [0n, -1n, 42n, INT64_MAX, INT64_MIN])
      expect(parseMinor(formatMinor(amount))).toBe(amount);
  });
});

describe("wire schemas", () => {
  it("ZMinorAmount accepts a decimal string within int64 and refuses numbers and malformed strings", () => {
    expect(ZMinorAmount.parse("-125")).toBe("-125");
    expect(ZMinorAmount.safeParse("9223372036854775807").success).toBe(true);
    expect(ZMinorAmount.safeParse("9223372036854775808").success).toBe(false);
    expect(ZMinorAmount.safeParse(125).success).toBe(false);
    const result = ZMinorAmount.safeParse("1.25");
    expect(result.error?.issues[0]?.message).toBe("must be an integer string of minor units within int64");
  });

  it("ZPositiveMinorAmount refuses zero and negatives", () => {
    expect(ZPositiveMinorAmount.parse("1")).toBe("1");
    expect(ZPositiveMinorAmount.safeParse("0").error?.issues[0]?.message).toBe("must be positive");
    expect(ZPositiveMinorAmount.safeParse("-5").success).toBe(false);
  });

  it("ZRate accepts positive decimal strings only", () => {
    for (const rate of ["1", "0.5", "12650.5", "0.000000000001", "999999999999.999999999999"]) {
      expect(ZRate.safeParse(rate).success, rate).toBe(true);
    }
    const refused = [
      "0",
      "0.000",
      "-1",
      "1.",
      ".5",
      "01.5",
      "1e3",
      "1,5",
      " 1",
      "1.0000000000001",
      "1000000000000",
    ];
    for (const rate of refused) expect(ZRate.safeParse(rate).success, rate).toBe(false);
    expect(ZRate.safeParse("0.00").error?.issues[0]?.message).toBe("must be greater than zero");
    expect(ZRate.safeParse(12650.5).success).toBe(false);
  });

  it("ZCurrencyCode wants three upper-case letters", () => {
    expect(ZCurrencyCode.parse("UZS")).toBe("UZS");
    for (const code of ["uzs", "US", "USDT", "U2S", ""])
      expect(ZCurrencyCode.safeParse(code).success, code).toBe(false);
  });
});

describe("applyRate", () => {
  it("is trunc(amount × rate), exact", () => {
    expect(applyRate(100n, "0.333")).toBe(33n);
    expect(applyRate(100n, "0.339")).toBe(33n);
    expect(applyRate(1n, "0.999999999999")).toBe(0n);
    expect(applyRate(3n, "0.333333333333")).toBe(0n);
    expect(applyRate(1_000_000_000_000n, "0.333333333333")).toBe(333_333_333_333n);
    expect(applyRate(10_000n, "12650.5")).toBe(126_505_000n);
    expect(applyRate(12_345n, "1")).toBe(12_345n);
    expect(applyRate(0n, "12650.5")).toBe(0n);
  });

  it("truncates negative amounts toward zero", () => {
    expect(applyRate(-100n, "0.333")).toBe(-33n);
    expect(applyRate(-1n, "0.5")).toBe(0n);
    expect(applyRate(-7n, "1.5")).toBe(-10n);
  });

  it("stays exact far beyond 2^53 where floating point would not", () => {
    expect(applyRate(9_007_199_254_740_993n, "1")).toBe(9_007_199_254_740_993n);
    expect(applyRate(9_007_199_254_740_993n, "0.5")).toBe(4_503_599_627_370_496n);
    expect(applyRate(INT64_MAX, "1")).toBe(INT64_MAX);
    expect(applyRate(INT64_MIN, "1")).toBe(INT64_MIN);
    expect(applyRate(INT64_MAX, "0.000000000001")).toBe(9_223_372n);
    expect(applyRate(922_337_203_685_477n, "10000")).toBe(9_223_372_036_854_770_000n);
  });

  it("refuses a result outside int64 (it could not be stored)", () => {
    expect(() => applyRate(INT64_MAX, "1.000000000001")).toThrow(RangeError);
    expect(() => applyRate(INT64_MIN, "2")).toThrow("amount out of int64 range");
    expect(() => applyRate(922_337_203_685_478n, "10000")).toThrow(RangeError);
  });

  it("refuses a malformed rate", () => {
    for (const rate of ["-1", "1e3", "abc", "", "1.", "1.0000000000001"]) {
      expect(() => applyRate(100n, rate), rate).toThrow(`Invalid rate "${rate}"`);
    }
  });
});

describe("minorToMajorString", () => {
  it.each([
    [123_456n, 2, "1234.56"],
    [5n, 2, "0.05"],
    [50n, 2, "0.50"],
    [0n, 2, "0.00"],
    [-5n, 2, "-0.05"],
    [-123_456n, 2, "-1234.56"],
    [1_234n, 3, "1.234"],
    [7n, 3, "0.007"],
    [1_250_000n, 0, "1250000"],
    [-3n, 0, "-3"],
    [INT64_MAX, 2, "92233720368547758.07"],
    [INT64_MIN, 2, "-92233720368547758.08"],
  ])("(%s, %i) → %s", (amount, minorUnits, expected) => {
    expect(minorToMajorString(amount, minorUnits)).toBe(expected);
  });

  it("refuses impossible minor units", () => {
    expect(() => minorToMajorString(1n, -1)).toThrow(RangeError);
    expect(() => minorToMajorString(1n, 1.5)).toThrow(RangeError);
  });
});

describe("addMinor", () => {
  it("adds within int64 and refuses to leave it", () => {
    expect(addMinor(2n, -5n)).toBe(-3n);
    expect(addMinor(INT64_MAX, 0n)).toBe(INT64_MAX);
    expect(addMinor(INT64_MIN, INT64_MAX)).toBe(-1n);
    expect(() => addMinor(INT64_MAX, 1n)).toThrow("amount out of int64 range");
    expect(() => addMinor(INT64_MIN, -1n)).toThrow(RangeError);
  });
});
