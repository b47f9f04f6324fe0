export { DEFAULT_TIME_ZONE, formatCalendarDate, formatDate, formatMoney } from "./format";
export { errorMessage, formatQuote, hasMessage, RESOURCES, type TranslationParams, t } from "./i18n";
export { issueMessage, matchIssue } from "./issues";
export { FALLBACK_LOCALE, isLocale, LOCALE_NAMES, SUPPORTED_LOCALES } from "./locales";
export type { MessageKey, Messages } from "./messages";
export { negotiateLocale } from "./negotiate";
