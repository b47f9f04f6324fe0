import type { Locale } from "./money";

/** A calendar date ("2026-03-06") in the user's locale: "Mar 6, 2026", "6 мар. 2026 г.", "06.03.2026". */
export const formatDate = (isoDate: string, locale: Locale): string => {
  // Uzbek: dd.mm.yyyy, as local accounting tools write it (browsers' ICU often lacks Uzbek patterns).
  if (locale === "uz") return isoDate.slice(0, 10).split("-").reverse().join(".");
  const [year, month, day] = isoDate.slice(0, 10).split("-").map(Number);
  // A calendar date has no time zone: format it as UTC so no offset moves it to another day.
  const date = new Date(Date.UTC(year ?? 1970, (month ?? 1) - 1, day ?? 1));
  return new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeZone: "UTC" }).format(date);
};

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
