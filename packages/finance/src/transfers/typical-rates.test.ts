import { describe, expect, it } from "vitest";
import { naturalQuoteBase } from "./typical-rates";

describe("naturalQuoteBase: the quote an exchange form starts with", () => {
  it.each([
    ["UZS", "USD", "USD"],
    ["USD", "UZS", "USD"],
    ["EUR", "USD", "EUR"],
    ["USD", "EUR", "EUR"],
    ["USD", "RUB", "USD"],
    ["RUB", "USD", "USD"],
    ["RUB", "KZT", "RUB"],
    ["KWD", "USD", "KWD"],
    ["JPY", "UZS", "JPY"],
  ])("%s → %s is quoted as 1 %s = …", (from, to, base) => {
    expect(naturalQuoteBase(from, to)).toBe(base);
  });

  it("a currency without a typical rate: the one that is not the som, else the destination", () => {
    expect(naturalQuoteBase("UZS", "XAU")).toBe("XAU");
    expect(naturalQuoteBase("XAU", "UZS")).toBe("XAU");
    expect(naturalQuoteBase("XAU", "XAG")).toBe("XAG");
  });
});
