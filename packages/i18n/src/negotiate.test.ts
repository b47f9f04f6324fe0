import { describe, expect, it } from "vitest";
import { negotiateLocale } from "./negotiate";

describe("negotiateLocale", () => {
  it("falls back to English", () => {
    expect(negotiateLocale({})).toBe("en");
    expect(negotiateLocale({ uiLocales: "", acceptLanguage: "" })).toBe("en");
    expect(negotiateLocale({ acceptLanguage: "de-DE, fr;q=0.8, *;q=0.5" })).toBe("en");
  });

  it("takes the first supported ui_locales tag, in order of preference", () => {
    expect(negotiateLocale({ uiLocales: "ru" })).toBe("ru");
    expect(negotiateLocale({ uiLocales: "fr-CA  uz-Latn-UZ ru" })).toBe("uz");
    expect(negotiateLocale({ uiLocales: "RU-ru" })).toBe("ru");
  });

  it("prefers ui_locales over Accept-Language, and uses the header when ui_locales has nothing we speak", () => {
    expect(negotiateLocale({ uiLocales: "uz", acceptLanguage: "ru" })).toBe("uz");
    expect(negotiateLocale({ uiLocales: "de fr", acceptLanguage: "ru-RU" })).toBe("ru");
  });

  it("ranks Accept-Language by q-value, ties in header order", () => {
    expect(negotiateLocale({ acceptLanguage: "ru-RU,ru;q=0.9,en-US;q=0.8,en;q=0.7" })).toBe("ru");
    expect(negotiateLocale({ acceptLanguage: "en;q=0.5, uz-Latn-UZ;q=0.9, ru;q=0.7" })).toBe("uz");
    expect(negotiateLocale({ acceptLanguage: "de, uz, ru" })).toBe("uz");
    expect(negotiateLocale({ acceptLanguage: "en;q=0.1, ru;Q=1.000" })).toBe("ru");
  });

  it("ignores q=0, malformed weights and malformed tags", () => {
    expect(negotiateLocale({ acceptLanguage: "ru;q=0, uz;q=0.2" })).toBe("uz");
    expect(negotiateLocale({ acceptLanguage: "ru;q=2, uz;q=0.2" })).toBe("uz");
    expect(negotiateLocale({ acceptLanguage: "ru;q=abc" })).toBe("en");
    expect(negotiateLocale({ acceptLanguage: "ru_RU, <uz>" })).toBe("en");
    expect(negotiateLocale({ uiLocales: "ru\u0000 uz" })).toBe("uz");
  });
});
