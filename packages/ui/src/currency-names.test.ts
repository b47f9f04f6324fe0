import { describe, expect, it } from "vitest";
import { currencyName } from "./currency-names";

describe("currencyName: currencies named in the user's language", () => {
  it.each([
    ["USD", "en", "US Dollar"],
    ["UZS", "ru", "Узбекский сум"],
    ["USD", "ru", "Доллар США"],
    ["UZS", "uz", "Oʻzbekiston soʻmi"],
    ["USD", "uz", "AQSH dollari"],
    ["KZT", "uz", "Qozogʻiston tengesi"],
  ] as const)("%s in %s is %s", (code, locale, name) => {
    expect(currencyName(code, locale, "server name")).toBe(name);
  });

  it("a currency the language has no name for keeps the server's name", () => {
    expect(currencyName("XAU", "uz", "Gold")).toBe("Gold");
    expect(currencyName("QQQ", "ru", "Quux")).toBe("Quux");
  });
});
