import { describe, expect, it } from "vitest";
import { errorMessage, hasMessage, RESOURCES, t } from "./i18n";
import { SUPPORTED_LOCALES } from "./locales";

type Tree = { [key: string]: string | Tree };

const flatten = (tree: Tree, prefix = ""): Map<string, string> => {
  const leaves = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    if (typeof value === "string") leaves.set(`${prefix}${key}`, value);
    else for (const [k, v] of flatten(value, `${prefix}${key}.`)) leaves.set(k, v);
  }
  return leaves;
};

const placeholders = (text: string) =>
  [...text.matchAll(/\{\{\s*([^}]*?)\s*\}\}/g)].map((match) => match[1]).sort();

const flat = Object.fromEntries(
  SUPPORTED_LOCALES.map((locale) => [locale, flatten(RESOURCES[locale] as Tree)]),
) as Record<(typeof SUPPORTED_LOCALES)[number], Map<string, string>>;

describe("resources", () => {
  it("every language has exactly the same keys", () => {
    const all = new Set(SUPPORTED_LOCALES.flatMap((locale) => [...flat[locale].keys()]));
    for (const locale of SUPPORTED_LOCALES) {
      const missing = [...all].filter((key) => !flat[locale].has(key));
      expect(missing, `keys missing in ${locale}`).toEqual([]);
    }
  });

  it("every translation uses the same placeholders as English", () => {
    for (const [key, english] of flat.en) {
      for (const locale of SUPPORTED_LOCALES) {
        expect(placeholders(flat[locale].get(key) ?? ""), `${locale}: ${key}`).toEqual(placeholders(english));
      }
    }
  });

  it("has no empty messages and no i18next nesting", () => {
    for (const locale of SUPPORTED_LOCALES) {
      for (const [key, text] of flat[locale]) {
        expect(text.trim(), `${locale}: ${key}`).not.toBe("");
        expect(text, `${locale}: ${key}`).not.toContain("$t(");
      }
    }
  });

  it("Russian is in Cyrillic and Uzbek in Latin script with the letters oʻ and gʻ (U+02BB)", () => {
    for (const [key, text] of flat.ru) expect(text, `ru: ${key}`).toMatch(/[а-яё]/i);
    for (const [key, text] of flat.uz) {
      expect(text, `uz: ${key}`).not.toMatch(/[а-яё]/i);
      expect(text, `uz: ${key}`).not.toMatch(/[oOgG]['`‘’ʼ]/);
      expect(text, `uz: ${key} is not translated`).not.toBe(flat.en.get(key));
    }
  });
});

describe("t", () => {
  it("translates and interpolates synchronously", () => {
    expect(t("en", "login.submit")).toBe("Sign in");
    expect(t("ru", "login.submit")).toBe("Войти");
    expect(t("uz", "login.submit")).toBe("Kirish");
    expect(t("ru", "login.error.too_many_attempts", { minutes: 15 })).toBe(
      "Слишком много неудачных попыток. Повторите через 15 мин.",
    );
  });

  it("inserts values verbatim: no HTML escaping, no nesting, no option injection", () => {
    const field = `<b>"x"</b> $t(login.submit) {{problem}}`;
    const params = { field, problem: "is required", lng: "ru" };
    expect(t("en", "validation.field", params)).toBe(`validation error: ${field} is required`);
  });
});

describe("errorMessage", () => {
  it("translates a reason and returns undefined for an unknown one", () => {
    expect(errorMessage("ru", "auth.unauthenticated")).toBe("Необходимо войти в систему.");
    expect(errorMessage("uz", "user.not_found")).toBe("Foydalanuvchi topilmadi.");
    expect(errorMessage("ru", "no.such_reason")).toBeUndefined();
  });

  it("does not treat groups or inherited properties as messages", () => {
    expect(errorMessage("en", "auth")).toBeUndefined();
    expect(errorMessage("en", "constructor")).toBeUndefined();
    expect(errorMessage("en", "auth.forbidden.constructor.name")).toBeUndefined();
    expect(hasMessage("en", "errors.auth.forbidden")).toBe(true);
  });
});
