import { decimalRatio, type Ratio } from "./rates";

/*
 * The order of magnitude of currencies, for the plausibility check of an exchange the organization
 * has no history for (docs/decisions/0016-exchange-plausibility.md): roughly how many units of each
 * one US dollar buys (mid-2025 market rates, rounded). It is not a source of rates and is never
 * posted; it only tells a rate that is plausible from one a factor of ten, a hundred or a thousand
 * off — a missing or extra zero, a decimal separator misread, a rate entered the wrong way round.
 * Currencies move, some fast: the check allows EXCHANGE_RATE_USUAL_FACTOR either way, and after the
 * first exchange of a pair the organization's own last rate is the reference instead. A currency
 * not listed here is checked against the organization's history only.
 */
const UNITS_PER_USD: Readonly<Record<string, string>> = {
  USD: "1",
  EUR: "0.9",
  GBP: "0.77",
  CHF: "0.85",
  UZS: "12600",
  RUB: "80",
  KZT: "520",
  KGS: "87",
  TJS: "10",
  TMT: "3.5",
  AZN: "1.7",
  GEL: "2.7",
  AMD: "390",
  BYN: "3.2",
  UAH: "41",
  MNT: "3600",
  AFN: "70",
  PKR: "280",
  INR: "85",
  IRR: "42000",
  CNY: "7.2",
  HKD: "7.8",
  JPY: "145",
  KRW: "1380",
  SGD: "1.3",
  MYR: "4.3",
  THB: "33",
  IDR: "16300",
  VND: "26000",
  TRY: "39",
  AED: "3.67",
  SAR: "3.75",
  QAR: "3.64",
  KWD: "0.31",
  BHD: "0.376",
  OMR: "0.385",
  ILS: "3.4",
  EGP: "49",
  CAD: "1.37",
  AUD: "1.54",
  NZD: "1.68",
  SEK: "9.6",
  NOK: "10.1",
  DKK: "6.4",
  PLN: "3.7",
  CZK: "21.5",
  HUF: "345",
  BRL: "5.5",
  MXN: "18.8",
};

/** The currencies with a typical rate. */
export const TYPICAL_RATE_CURRENCIES = Object.keys(UNITS_PER_USD);

/**
 * About how many units of `to` one unit of `from` buys (major units, as a fraction), or null when
 * either currency has no typical rate.
 */
export const typicalRatio = (from: string, to: string): Ratio | null => {
  const perUsdFrom = UNITS_PER_USD[from];
  const perUsdTo = UNITS_PER_USD[to];
  if (perUsdFrom === undefined || perUsdTo === undefined) return null;
  const a = decimalRatio(perUsdFrom);
  const b = decimalRatio(perUsdTo);
  // 1 from = (1/a) USD = (b/a) to.
  return { num: b.num * a.den, den: b.den * a.num };
};

/**
 * The base of a quote as people read it: "1 USD = 12,650 UZS", "1 EUR = 1.11 USD" — the currency a
 * unit of which buys more of the other. A currency without a typical rate: the one that is not the
 * som (banks here quote "1 X = … UZS"), else `to`.
 */
export const naturalQuoteBase = (from: string, to: string): string => {
  const ratio = typicalRatio(from, to);
  if (ratio) return ratio.num >= ratio.den ? from : to;
  return to !== "UZS" ? to : from;
};
