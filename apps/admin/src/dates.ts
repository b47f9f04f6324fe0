import type { Locale } from "@hisob/ui";

/** Dates and times as our users read them: dd.mm.yyyy and a 24-hour clock in ru and uz. */
const DATE_FORMATS: Record<Locale, Intl.DateTimeFormat> = {
  en: new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "short" }),
  ru: new Intl.DateTimeFormat("ru-RU", { dateStyle: "short", timeStyle: "short" }),
  uz: new Intl.DateTimeFormat("ru-RU", { dateStyle: "short", timeStyle: "short" }),
};

export const formatDateTime = (language: Locale, iso: string | null | undefined) =>
  iso ? DATE_FORMATS[language].format(new Date(iso)) : "—";
