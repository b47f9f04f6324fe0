export {
  type ApiClient,
  type ApiClientOptions,
  type ApiFailure,
  createApiClient,
  describeFailure,
  type FieldIssue,
} from "./api";
export { AppFrame, type NavItem } from "./app-frame";
export { currencyName, currencyOption } from "./currency-names";
export {
  DATE_RANGE,
  type DateProblem,
  type DateReading,
  dateMessage,
  dateText,
  formatDate,
  formatMonth,
  readDate,
  todayIso,
} from "./dates";
export { browserLocale, createI18n, I18nProvider, isLocale, LOCALE_NAMES, LOCALES, useLocale } from "./i18n";
export { type LazyLoaded, lazyLoaded } from "./lazy-loaded";
export { ListPage, useListData, usePaging } from "./list-page";
export {
  formatMoney,
  formatPercent,
  type Locale,
  minorToDecimal,
  numberLocale,
  totalsByCurrency,
} from "./money";
export { endCancelledMotions, motionLeftWaiting } from "./motion";
export { QueryState } from "./query-state";
export {
  createRestClient,
  type Page,
  queryString,
  type RestClient,
  type RestClientOptions,
  RestError,
  signInUrl,
} from "./rest";
export { BRAND, HISOB_THEME } from "./theme";
