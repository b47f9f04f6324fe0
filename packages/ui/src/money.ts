/*
 * Money in the apps: amounts travel as decimal strings of minor units and are handled as bigint;
 * Intl formats them from an exact decimal string, so no amount ever goes through a float.
 */

export type Locale = "en" | "ru" | "uz";

/** Minor units → an exact decimal string ("-1234.56"). */
export const minorToDecimal = (minor: bigint, minorUnits: number): string => {
  const negative = minor < 0n;
  const digits = (negative ? -minor : minor).toString().padStart(minorUnits + 1, "0");
  const whole = minorUnits === 0 ? digits : digits.slice(0, -minorUnits);
  const fraction = minorUnits === 0 ? "" : `.${digits.slice(-minorUnits)}`;
  return `${negative ? "-" : ""}${whole}${fraction}`;
};

/**
 * The locale whose number format we use. Uzbek writes numbers as Russian does (spaces between
 * thousands, a decimal comma: "1 234 567,89 UZS"), and browsers' ICU data often lacks Uzbek and falls
 * back to English ("UZS 1,234,567.89"), which our users would misread.
 */
export const numberLocale = (locale: Locale): string => (locale === "uz" ? "ru" : locale);

/** "123456" (minor units of UZS, 2 digits) → "1 234,56 UZS" in ru; exact for any size. */
export const formatMoney = (
  minor: bigint | string,
  currency: string,
  minorUnits: number,
  locale: Locale,
): string => {
  const value = typeof minor === "bigint" ? minor : BigInt(minor);
  const format = new Intl.NumberFormat(numberLocale(locale), {
    style: "currency",
    currency,
    currencyDisplay: "code",
    minimumFractionDigits: minorUnits,
    maximumFractionDigits: minorUnits,
  });
  // Intl.NumberFormat.format takes a decimal string exactly (ES2023 "Intl.NumberFormat v3").
  return format.format(minorToDecimal(value, minorUnits) as unknown as number);
};

/**
 * A percentage the server wrote as a decimal string ("12.50", "-100.00") as the language writes it:
 * "12.50%" in en, "12,50 %" in ru and uz; exact (Intl formats the string, no float).
 */
export const formatPercent = (value: string, locale: Locale): string => {
  const loc = numberLocale(locale);
  const number = new Intl.NumberFormat(loc, { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(
    value as unknown as number,
  );
  // The language's percent pattern ("1%", "1 %"), its number replaced by ours.
  const pattern = new Intl.NumberFormat(loc, { style: "percent" }).formatToParts(0.01);
  return pattern.map((part) => (part.type === "integer" ? number : part.value)).join("");
};

/** Totals per currency (never across currencies), in first-seen order. */
export const totalsByCurrency = <T>(
  rows: readonly T[],
  currencyOf: (row: T) => string,
  amountOf: (row: T) => string,
): { currency: string; total: bigint }[] => {
  const totals = new Map<string, bigint>();
  for (const row of rows) {
    const currency = currencyOf(row);
    totals.set(currency, (totals.get(currency) ?? 0n) + BigInt(amountOf(row)));
  }
  return [...totals].map(([currency, total]) => ({ currency, total }));
};
