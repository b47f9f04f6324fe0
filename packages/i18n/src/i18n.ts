import type { DateParam, Locale, MoneyParam, QuoteParam } from "@hisob/kernel";
import { createInstance } from "i18next";
import { formatCalendarDate, formatMoney } from "./format";
import { FALLBACK_LOCALE, SUPPORTED_LOCALES } from "./locales";
import { en } from "./locales/en";
import { ru } from "./locales/ru";
import { uz } from "./locales/uz";
import type { MessageKey, Messages } from "./messages";

export const RESOURCES: Record<Locale, Messages> = { en, ru, uz };

/**
 * Values for `{{name}}` placeholders; an amount is rendered in the locale's money format, a quote as
 * "1 USD = 12,650 UZS", a day as the apps write dates ("Jan 31, 2026", "31.01.2026").
 */
export type TranslationParams = Record<string, string | number | MoneyParam | QuoteParam | DateParam>;

const isQuote = (value: unknown): value is QuoteParam => {
  if (typeof value !== "object" || value === null) return false;
  const { base, quote, rate } = value as Partial<QuoteParam>;
  return (
    typeof base === "string" &&
    /^[A-Z]{3}$/.test(base) &&
    typeof quote === "string" &&
    /^[A-Z]{3}$/.test(quote) &&
    typeof rate === "string" &&
    /^[0-9]{1,40}(\.[0-9]{1,40})?$/.test(rate)
  );
};

/** "1 USD = 12,650 UZS" in `locale` (Intl formats the decimal string exactly, no float). */
export const formatQuote = (quote: QuoteParam, locale: Locale): string =>
  `1 ${quote.base} = ${new Intl.NumberFormat(locale, { maximumFractionDigits: 20 }).format(quote.rate as `${number}`)} ${quote.quote}`;

// Kept local (not the kernel's isMoneyParam): the kernel's index is Node-only and this package runs in browsers.
const isMoney = (value: unknown): value is MoneyParam => {
  if (typeof value !== "object" || value === null) return false;
  const { minor, currency, minorUnits } = value as Partial<MoneyParam>;
  return (
    typeof minor === "string" &&
    /^-?[0-9]{1,20}$/.test(minor) &&
    typeof currency === "string" &&
    /^[A-Z]{3}$/.test(currency) &&
    Number.isInteger(minorUnits)
  );
};

// Kept local for the same reason.
const isDay = (value: unknown): value is DateParam =>
  typeof value === "object" &&
  value !== null &&
  typeof (value as Partial<DateParam>).isoDate === "string" &&
  /^\d{4}-\d{2}-\d{2}$/.test((value as DateParam).isoDate);

const rendered = (locale: Locale, params: TranslationParams | undefined): Record<string, string | number> =>
  Object.fromEntries(
    Object.entries(params ?? {}).map(([name, value]) => [
      name,
      isMoney(value)
        ? formatMoney(BigInt(value.minor), value.currency, value.minorUnits, locale)
        : isQuote(value)
          ? formatQuote(value, locale)
          : isDay(value)
            ? formatCalendarDate(value.isoDate, locale)
            : (value as string | number),
    ]),
  );

// Our own instance (never the global singleton), initialised once and synchronously: resources are
// inline, and `initAsync: false` makes init() complete before it returns.
const i18n = createInstance();
void i18n.init({
  initAsync: false,
  lng: FALLBACK_LOCALE,
  fallbackLng: FALLBACK_LOCALE,
  supportedLngs: [...SUPPORTED_LOCALES],
  resources: Object.fromEntries(
    Object.entries(RESOURCES).map(([locale, messages]) => [locale, { translation: messages }]),
  ),
  // Values are escaped where they are rendered (HTML templates); JSON needs them verbatim.
  interpolation: { escapeValue: false },
  returnNull: false,
  returnObjects: false,
});

// Values go under `replace` so a param named like an i18next option (lng, count, ns) stays a value.
const translate = (locale: Locale, key: string, params?: TranslationParams): string =>
  i18n.t(key, { lng: locale, replace: rendered(locale, params) });

/** The message for `key` in `locale`. Synchronous; keys are checked at compile time. */
export const t = (locale: Locale, key: MessageKey, params?: TranslationParams): string =>
  translate(locale, key, params);

/** True when `key` leads to a message (not a group of messages) in `locale`. */
export const hasMessage = (locale: Locale, key: string): boolean =>
  typeof i18n.getResource(locale, "translation", key) === "string";

/** The localized text for an AppError reason (`errors.<reason>`), or undefined when there is none. */
export const errorMessage = (
  locale: Locale,
  reason: string,
  params?: TranslationParams,
): string | undefined => {
  const key = `errors.${reason}`;
  return hasMessage(locale, key) ? translate(locale, key, params) : undefined;
};
