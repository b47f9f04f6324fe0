import type { Locale } from "./money";

/*
 * A currency's name in the user's language, where the UI names currencies (pickers of currencies);
 * amounts keep their ISO codes. Russian and English come from the browser's Intl data; Chromium's has
 * no Uzbek currency names (it answers in English), so Uzbek names are ours, for the currencies the
 * books start with and their neighbours. Anything else: the name the server keeps.
 */
const UZBEK: Readonly<Record<string, string>> = {
  UZS: "Oʻzbekiston soʻmi",
  USD: "AQSH dollari",
  EUR: "Yevro",
  RUB: "Rossiya rubli",
  KZT: "Qozogʻiston tengesi",
  KGS: "Qirgʻiziston somi",
  TJS: "Tojikiston somoniysi",
  TMT: "Turkmaniston manati",
  AZN: "Ozarbayjon manati",
  GBP: "Angliya funt sterlingi",
  CHF: "Shveytsariya franki",
  CNY: "Xitoy yuani",
  JPY: "Yaponiya iyenasi",
  KRW: "Janubiy Koreya voni",
  TRY: "Turkiya lirasi",
  AED: "BAA dirhami",
  INR: "Hindiston rupiyasi",
};

export const currencyName = (code: string, locale: Locale, fallback: string): string => {
  if (locale === "uz") return UZBEK[code] ?? fallback;
  try {
    const name = new Intl.DisplayNames(locale, { type: "currency", fallback: "none" }).of(code);
    if (!name) return fallback;
    // Russian names are written in lower case in running text; at the start of an option, capitalised.
    return name.charAt(0).toLocaleUpperCase(locale) + name.slice(1);
  } catch {
    return fallback;
  }
};

/** A currency as a picker offers it: "UZS — Oʻzbek soʻmi", the code first (what people type to find it). */
export const currencyOption = (currency: { code: string; name: string }, locale: Locale) => ({
  value: currency.code,
  label: `${currency.code} — ${currencyName(currency.code, locale, currency.name)}`,
});
