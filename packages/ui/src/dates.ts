import { formatCalendarDate } from "@hisob/i18n";
import type { Locale } from "./money";

/**
 * A calendar date ("2026-03-06") in the user's locale: "Mar 6, 2026", "6 мар. 2026 г.", "06.03.2026" —
 * the server's messages write the days they name the same way (packages/i18n).
 */
export const formatDate = (isoDate: string, locale: Locale): string => formatCalendarDate(isoDate, locale);

/** A month ("2026-03-01") short: "Mar 2026", "мар. 2026", in the user's locale. */
const UZ_MONTHS = ["yan", "fev", "mar", "apr", "may", "iyn", "iyl", "avg", "sen", "okt", "noy", "dek"];

export const formatMonth = (isoDate: string, locale: Locale): string => {
  const [year, month] = isoDate.slice(0, 10).split("-").map(Number);
  if (locale === "uz") return `${UZ_MONTHS[(month ?? 1) - 1]} ${year}`;
  const date = new Date(Date.UTC(year ?? 1970, (month ?? 1) - 1, 1));
  return new Intl.DateTimeFormat(locale, { month: "short", year: "numeric", timeZone: "UTC" }).format(date);
};

/** Today as an ISO date in the user's time zone. */
export const todayIso = (): string => {
  const now = new Date();
  const offset = now.getTimezoneOffset() * 60_000;
  return new Date(now.getTime() - offset).toISOString().slice(0, 10);
};

/*
 * Dates as people type them, per language (docs/decisions/0017-typed-dates.md): English mm/dd/yyyy,
 * Russian and Uzbek dd.mm.yyyy (also ddmmyyyy), and ISO yyyy-mm-dd in every language. A text that is
 * not a real day, or not one the books hold, is refused with what was wrong — never replaced.
 */

/** The dates the books hold (the server's ZIsoDate range, finance's FIRST_DATE and LAST_DATE). */
export const DATE_RANGE = { first: "1900-01-01", last: "9999-12-31" } as const;

export type DateProblem =
  | { code: "format" }
  | { code: "no_month"; month: number }
  | { code: "no_day"; lastDay: string }
  | { code: "range" };

export type DateReading = { ok: true; iso: string } | { ok: false; problem: DateProblem };

const pad = (value: number, width: number) => String(value).padStart(width, "0");
const isoOf = (year: number, month: number, day: number) => `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}`;

/** Days in a month of the proleptic Gregorian calendar (PostgreSQL's). */
const daysIn = (year: number, month: number): number =>
  month === 2
    ? year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0)
      ? 29
      : 28
    : [4, 6, 9, 11].includes(month)
      ? 30
      : 31;

/** "2026-03-06" as the language types it: "03/06/2026", "06.03.2026". */
export const dateText = (isoDate: string, locale: Locale): string => {
  const [year = "", month = "", day = ""] = isoDate.slice(0, 10).split("-");
  return locale === "en" ? `${month}/${day}/${year}` : `${day}.${month}.${year}`;
};

/** What a typed date is in `locale`: its ISO form, or why it is not a date of the books. */
export const readDate = (text: string, locale: Locale): DateReading => {
  const typed = text.normalize("NFKC").trim();
  const iso = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(typed);
  const local =
    locale === "en"
      ? /^(?<month>\d{1,2})\/(?<day>\d{1,2})\/(?<year>\d{4})$/.exec(typed)
      : (/^(?<day>\d{1,2})\.(?<month>\d{1,2})\.(?<year>\d{4})$/.exec(typed) ??
        /^(?<day>\d{2})(?<month>\d{2})(?<year>\d{4})$/.exec(typed));
  let parts: [number, number, number];
  if (iso) parts = [Number(iso[1]), Number(iso[2]), Number(iso[3])];
  else if (local?.groups)
    parts = [Number(local.groups.year), Number(local.groups.month), Number(local.groups.day)];
  else return { ok: false, problem: { code: "format" } };
  const [year, month, day] = parts;
  if (month < 1 || month > 12) return { ok: false, problem: { code: "no_month", month } };
  const last = daysIn(year, month);
  if (day < 1 || day > last)
    return { ok: false, problem: { code: "no_day", lastDay: isoOf(year, month, last) } };
  const date = isoOf(year, month, day);
  if (date < DATE_RANGE.first || date > DATE_RANGE.last) return { ok: false, problem: { code: "range" } };
  return { ok: true, iso: date };
};

/** The typing pattern each language shows (the date field's placeholder). */
const PATTERN_KEY = "ui:date.pattern";

/** The sentence for a refused date, in the user's language; `today` gives the example. */
export const dateMessage = (
  refused: DateProblem,
  typed: string,
  locale: Locale,
  t: (key: string, params?: Record<string, string | number>) => string,
  today: string,
): string => {
  const quoted = typed.trim();
  switch (refused.code) {
    case "format":
      return t("ui:date.format", {
        typed: quoted,
        pattern: t(PATTERN_KEY),
        example: dateText(today, locale),
      });
    case "no_month":
      return t("ui:date.noMonth", { typed: quoted, month: refused.month });
    case "no_day":
      return t("ui:date.noDay", { typed: quoted, lastDay: dateText(refused.lastDay, locale) });
    case "range":
      return t("ui:date.range", {
        typed: quoted,
        first: dateText(DATE_RANGE.first, locale),
        last: dateText(DATE_RANGE.last, locale),
      });
  }
};
