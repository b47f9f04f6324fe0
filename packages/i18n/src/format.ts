import type { Locale } from "@hisob/kernel";

/** The Tashkent clock: Hisob's users are in Uzbekistan (UTC+5, no daylight saving time). */
export const DEFAULT_TIME_ZONE = "Asia/Tashkent";

/** Minor units → an exact decimal string ("-1234.56"); Intl formats such strings without going through a float. */
const toDecimalString = (minor: bigint, minorUnits: number): `${number}` => {
  if (!Number.isInteger(minorUnits) || minorUnits < 0 || minorUnits > 20) {
    throw new RangeError(`Invalid minor units ${minorUnits}`);
  }
  const negative = minor < 0n;
  const digits = (negative ? -minor : minor).toString().padStart(minorUnits + 1, "0");
  const whole = minorUnits === 0 ? digits : digits.slice(0, -minorUnits);
  const fraction = minorUnits === 0 ? "" : `.${digits.slice(-minorUnits)}`;
  return `${negative ? "-" : ""}${whole}${fraction}` as `${number}`;
};

/**
 * An amount in minor units as money in `locale`, exact for any bigint (no float on the way), written
 * as the apps write it (packages/ui's formatMoney): the currency's code, never a symbol ("soʻm",
 * "US$", "$"), and Uzbek grouped as Russian is (browsers' and ICU's Uzbek data vary):
 * formatMoney(123456789n, "UZS", 2, "ru") → "1 234 567,89 UZS" (with no-break spaces).
 */
export const formatMoney = (minor: bigint, currency: string, minorUnits: number, locale: Locale): string =>
  new Intl.NumberFormat(locale === "uz" ? "ru" : locale, {
    style: "currency",
    currency,
    currencyDisplay: "code",
    minimumFractionDigits: minorUnits,
    maximumFractionDigits: minorUnits,
  }).format(toDecimalString(minor, minorUnits));

/** A calendar date in `locale` ("Mar 6, 2026", "6 мар. 2026 г.", "6-mar, 2026"), on Tashkent time by default. */
export const formatDate = (date: Date, locale: Locale, options: { timeZone?: string } = {}): string =>
  new Intl.DateTimeFormat(locale, {
    dateStyle: "medium",
    timeZone: options.timeZone ?? DEFAULT_TIME_ZONE,
  }).format(date);

/**
 * A calendar day ("2026-03-06") as the apps write it: "Mar 6, 2026", "6 мар. 2026 г.", and in Uzbek
 * "06.03.2026", as local accounting tools write it (browsers' and ICU's Uzbek patterns vary). A day has
 * no time zone: it is formatted as UTC so no offset moves it to another day.
 */
export const formatCalendarDate = (isoDate: string, locale: Locale): string => {
  if (locale === "uz") return isoDate.slice(0, 10).split("-").reverse().join(".");
  const [year, month, day] = isoDate.slice(0, 10).split("-").map(Number);
  const date = new Date(Date.UTC(year ?? 1970, (month ?? 1) - 1, day ?? 1));
  return new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeZone: "UTC" }).format(date);
};
