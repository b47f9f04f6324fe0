import { formatMoney as serverMoney } from "@hisob/i18n";
import { describe, expect, it } from "vitest";
import { formatDate, formatMonth } from "./dates";
import { formatMoney, minorToDecimal, totalsByCurrency } from "./money";

const plain = (text: string) => text.replace(/[\u00a0\u202f]/g, " ");

describe("money in the apps", () => {
  it("reads exactly as the server's messages write it (one format: the currency's code)", () => {
    for (const locale of ["en", "ru", "uz"] as const) {
      for (const [minor, currency, digits] of [
        [123456789n, "UZS", 2],
        [-500000n, "USD", 2],
        [1500n, "JPY", 0],
      ] as const) {
        expect(formatMoney(minor, currency, digits, locale)).toBe(
          serverMoney(minor, currency, digits, locale),
        );
      }
    }
  });

  it("formats minor units exactly, beyond 2^53, per locale", () => {
    expect(plain(formatMoney("123456789", "UZS", 2, "en"))).toBe("UZS 1,234,567.89");
    expect(plain(formatMoney("123456789", "UZS", 2, "ru"))).toBe("1 234 567,89 UZS");
    expect(plain(formatMoney("123456789", "UZS", 2, "uz"))).toBe("1 234 567,89 UZS");
    expect(plain(formatMoney(9007199254740993n, "USD", 2, "en"))).toBe("USD 90,071,992,547,409.93");
    expect(plain(formatMoney("-5", "USD", 2, "en"))).toBe("-USD 0.05");
    expect(minorToDecimal(-1234n, 3)).toBe("-1.234");
  });

  it("totals per currency, never across currencies", () => {
    const rows = [
      { c: "UZS", a: "100" },
      { c: "USD", a: "5" },
      { c: "UZS", a: "-30" },
    ];
    expect(
      totalsByCurrency(
        rows,
        (r) => r.c,
        (r) => r.a,
      ),
    ).toEqual([
      { currency: "UZS", total: 70n },
      { currency: "USD", total: 5n },
    ]);
  });

  it("shows calendar dates without moving them by a time zone; Uzbek as dd.mm.yyyy", () => {
    expect(formatDate("2026-03-06", "en")).toBe("Mar 6, 2026");
    expect(formatDate("2026-03-06", "uz")).toBe("06.03.2026");
    expect(formatMonth("2026-11-01", "uz")).toBe("noy 2026");
  });
});
