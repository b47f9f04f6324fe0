import { describe, expect, it } from "vitest";
import { negateQuantity, normalizeQuantity, ZQuantity, ZQuantityChange } from "./quantity";

describe("inventory quantities", () => {
  it.each([
    ["0", true],
    ["12", true],
    ["12.5", true],
    ["0.000001", true],
    ["99999999999999.999999", true],
    ["100000000000000", false], // 15 integer digits
    ["1.0000001", false], // 7 fraction digits
    ["-1", false],
    ["01", false],
    ["1.", false],
    [".5", false],
    ["1e3", false],
    [" 1", false],
    ["1,5", false],
    ["", false],
    ["NaN", false],
  ])("ZQuantity %s → %s", (value, ok) => {
    expect(ZQuantity.safeParse(value).success).toBe(ok);
  });

  it.each([
    ["-3.25", true],
    ["3.25", true],
    ["0", false],
    ["-0", false],
    ["0.000000", false],
    ["-0.000001", true],
    ["--1", false],
    ["+1", false],
  ])("ZQuantityChange %s → %s", (value, ok) => {
    expect(ZQuantityChange.safeParse(value).success).toBe(ok);
  });

  it("parses the same value twice (transport, then service)", () => {
    const once = ZQuantityChange.parse("-1.50");
    expect(ZQuantityChange.parse(once)).toBe("-1.50");
  });

  it.each([
    ["12.500000", "12.5"],
    ["0.000000", "0"],
    ["10.000000", "10"],
    ["10", "10"],
    ["-0.000000", "0"],
    ["-3.250000", "-3.25"],
    ["0.000001", "0.000001"],
    ["99999999999999.999999", "99999999999999.999999"],
  ])("normalizes %s → %s", (value, expected) => {
    expect(normalizeQuantity(value)).toBe(expected);
  });

  it("negates exactly", () => {
    expect(negateQuantity("1.5")).toBe("-1.5");
    expect(negateQuantity("-0.000001")).toBe("0.000001");
  });
});
