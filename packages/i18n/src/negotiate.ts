import type { Locale } from "@hisob/kernel";
import { FALLBACK_LOCALE, isLocale } from "./locales";

// Headers are bounded by the server, but a query parameter is not: look at a sane number of tags.
const MAX_TAGS = 32;
const LANGUAGE_TAG = /^[A-Za-z]{1,8}(-[A-Za-z0-9]{1,8})*$/;

/** "ru-RU", "uz-Latn-UZ", "RU" → the supported locale of its primary language, if any. */
const localeOfTag = (tag: string): Locale | undefined => {
  if (!LANGUAGE_TAG.test(tag)) return undefined;
  const primary = tag.split("-")[0]?.toLowerCase();
  return isLocale(primary) ? primary : undefined;
};

/** OIDC `ui_locales`: space-separated tags in order of preference. */
const fromUiLocales = (value: string): Locale | undefined => {
  for (const tag of value.trim().split(/\s+/).slice(0, MAX_TAGS)) {
    const locale = localeOfTag(tag);
    if (locale) return locale;
  }
  return undefined;
};

const Q_VALUE = /^q=(0(\.\d{0,3})?|1(\.0{0,3})?)$/i;

/** Accept-Language (RFC 9110): tags weighted by q, highest first, ties in header order; q=0 means "not this". */
const fromAcceptLanguage = (value: string): Locale | undefined => {
  const ranked: { locale: Locale; q: number; index: number }[] = [];
  value
    .split(",")
    .slice(0, MAX_TAGS)
    .forEach((entry, index) => {
      const [rawTag = "", ...rawParams] = entry.split(";").map((part) => part.trim());
      let q = 1;
      for (const param of rawParams) {
        if (!/^q=/i.test(param)) continue;
        // A malformed weight makes the entry unusable rather than preferred.
        q = Q_VALUE.test(param) ? Number(param.slice(2)) : 0;
      }
      const locale = localeOfTag(rawTag);
      if (locale && q > 0) ranked.push({ locale, q, index });
    });
  ranked.sort((a, b) => b.q - a.q || a.index - b.index);
  return ranked[0]?.locale;
};

/**
 * The language to answer in: the first supported `ui_locales` tag, else the best supported
 * Accept-Language tag, else English. Region and script subtags are ignored (ru-RU → ru, uz-Latn-UZ → uz).
 */
export const negotiateLocale = (input: {
  uiLocales?: string | undefined;
  acceptLanguage?: string | undefined;
}): Locale =>
  (input.uiLocales ? fromUiLocales(input.uiLocales) : undefined) ??
  (input.acceptLanguage ? fromAcceptLanguage(input.acceptLanguage) : undefined) ??
  FALLBACK_LOCALE;
