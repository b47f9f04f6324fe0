import { describe, expect, it } from "vitest";
import { formatDate, formatMoney } from "./format";

// Intl separates groups with no-break spaces (U+00A0 or U+202F); compare with plain spaces.
const plain = (text: string) => text.replace(/[\u00a0\u202f]/g, " ");

describe("formatMoney", () => {
  it("formats per locale, with the currency's code as the apps show it (never soʻm, US$ or $)", () => {
    expect(plain(formatMoney(123456789n, "USD", 2, "en"))).toBe("USD 1,234,567.89");
    expect(plain(formatMoney(123456789n, "UZS", 2, "ru"))).toBe("1 234 567,89 UZS");
    expect(plain(formatMoney(123456789n, "UZS", 2, "uz"))).toBe("1 234 567,89 UZS");
    expect(plain(formatMoney(500000n, "USD", 2, "uz"))).toBe("5 000,00 USD");
  });

  it("is exact beyond 2^53 and keeps every minor digit", () => {
    expect(plain(formatMoney(9007199254740993n, "USD", 2, "en"))).toBe("USD 90,071,992,547,409.93");
    expect(plain(formatMoney(-(2n ** 63n), "USD", 2, "en"))).toBe("-USD 92,233,720,368,547,758.08");
    expect(plain(formatMoney(5n, "USD", 2, "en"))).toBe("USD 0.05");
    expect(plain(formatMoney(-5n, "USD", 3, "en"))).toBe("-USD 0.005");
    expect(plain(formatMoney(1500n, "JPY", 0, "ru"))).toBe("1 500 JPY");
  });

  it("refuses impossible minor units", () => {
    expect(() => formatMoney(1n, "USD", -1, "en")).toThrow(RangeError);
    expect(() => formatMoney(1n, "USD", 1.5, "en")).toThrow(RangeError);
  });
});

describe("formatDate", () => {
  const lateEvening = new Date("2026-03-05T22:00:00Z");

  it("formats per locale on Tashkent time", () => {
    expect(formatDate(lateEvening, "en")).toBe("Mar 6, 2026");
    expect(formatDate(lateEvening, "ru")).toBe("6 мар. 2026 г.");
    expect(formatDate(lateEvening, "uz")).toBe("6-mar, 2026");
  });

  it("takes another time zone", () => {
    expect(formatDate(lateEvening, "en", { timeZone: "UTC" })).toBe("Mar 5, 2026");
  });
});
