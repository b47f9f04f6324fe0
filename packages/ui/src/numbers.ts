import { INT64_MAX, RATE_DIGITS } from "@hisob/kernel/money";
import type { Locale } from "./money";

/*
 * Numbers as people type them, per language: one reader for every amount, rate and quantity the apps
 * take (docs/decisions/0015-typed-numbers.md). English writes 1,234,567.89; Russian and Uzbek write
 * 1 234 567,89. Each language's own decimal separator is the decimal separator; the other one is
 * accepted only where it cannot be misread, and text that two readings fit is refused with both of
 * them, never guessed. The result is exact: a decimal string and a bigint scaled to the field's
 * fraction digits (an amount's minor units), never a float.
 */

export type NumberRules = {
  /** Most digits after the decimal separator (a currency's minor units; 12 for a rate). */
  fractionDigits: number;
  /** The largest magnitude, scaled by 10^fractionDigits (an amount: int64 minor units). */
  maxScaled?: bigint;
  /** The most digits before the decimal separator (a rate: 12). */
  maxWholeDigits?: number;
  /** "positive": above zero (amounts, rates); "any": a sign is allowed (an opening balance). */
  sign: "positive" | "nonNegative" | "any";
  /** The field's currency code: "UZS 1,234.56" and "1 234,56 UZS", as the app shows money, are read too. */
  currency?: string;
};

export type NumberProblem =
  | { code: "empty" }
  /** Letters or symbols that no number has. */
  | { code: "not_a_number" }
  /** "1e3": a computer's notation; `full` is the number written out when it is reasonable. */
  | { code: "exponent"; full: string | null }
  /** en: "1,50", "0,000079": a comma where English separates thousands; `reading` with a point. */
  | { code: "comma_decimal"; reading: string }
  /** en: "1.234.567" (points between thousands); `reading` as English writes it. */
  | { code: "point_grouping"; reading: string }
  /** en: "1.234,56"; ru/uz: "1,234.56" or "1,234,567": the other convention; `reading` in this one. */
  | { code: "other_convention"; reading: string }
  /** ru/uz: "12.650": thousands (12 650) or a fraction (12,65). */
  | { code: "ambiguous"; readings: [string, string] }
  /** Separators where none can be ("1..5", "1 23 456", "12,34,567"). */
  | { code: "grouping" }
  /** More fraction digits than the field has; `grouped`: the value if the separator grouped thousands. */
  | { code: "fraction_digits"; count: number; max: number; grouped: string | null }
  | { code: "too_large"; max: string }
  | { code: "too_many_digits"; max: number }
  | { code: "not_positive" }
  | { code: "negative" };

export type NumberReading =
  | {
      ok: true;
      /** The value as a plain decimal string ("-1234.5"): no grouping, a point, no trailing zeros. */
      decimal: string;
      /** The value × 10^fractionDigits, exactly (an amount's minor units). */
      scaled: bigint;
    }
  | { ok: false; problem: NumberProblem };

const problem = (value: NumberProblem): NumberReading => ({ ok: false, problem: value });

/** The decimal separator each language writes. */
export const decimalSeparator = (locale: Locale): "." | "," => (locale === "en" ? "." : ",");

/** Minus signs people and editors produce: hyphen-minus, U+2212 (−), figure and en dashes, small and full-width hyphen-minus. */
const MINUS = /^[-\u2012\u2013\u2212\ufe63\uff0d]/;

/** Full-width digits and punctuation (an IME's), and every kind of space (no-break, narrow, thin) → ASCII. */
const normalize = (text: string): string =>
  text
    .normalize("NFKC")
    .replace(/[\s\u00a0\u2007\u202f\u3000]+/g, " ")
    .trim();

const stripCurrency = (text: string, currency: string | undefined): string => {
  if (!currency) return text;
  const code = currency.toUpperCase();
  const upper = text.toUpperCase();
  if (upper.startsWith(code) && !/[A-Z]/i.test(text.charAt(code.length)))
    return text.slice(code.length).trim();
  if (upper.endsWith(code) && !/[A-Z]/i.test(text.charAt(text.length - code.length - 1)))
    return text.slice(0, -code.length).trim();
  return text;
};

/** Leading zeros off ("007" → "7", "000" → "0"). */
const wholeDigits = (digits: string): string => digits.replace(/^0+(?=\d)/, "");

/** The value of whole and fraction digits as a plain decimal string, trailing zeros kept: ("0012", "50") → "12.50". */
const decimalOf = (whole: string, fraction: string): string =>
  `${wholeDigits(whole.replace(/\D/g, "") || "0")}${fraction ? `.${fraction}` : ""}`;

/** Groups of thousands: the first of 1–3 digits not starting with 0, every other of exactly 3. */
const isGrouping = (groups: readonly string[]): boolean =>
  groups.length > 1 &&
  /^[1-9]\d{0,2}$/.test(groups[0] ?? "") &&
  groups.slice(1).every((group) => /^\d{3}$/.test(group));

const EXPONENT = /^(\d+)(?:[.,](\d+))?e([+-]?\d+)$/i;

/** "1e3", "2.5E-4" → the number written out (null when it would be absurdly long). */
const expandExponent = (match: RegExpExecArray): string | null => {
  const [, whole = "", fraction = "", exp = "0"] = match;
  const power = Number(exp);
  if (Math.abs(power) > 30) return null;
  const digits = `${whole}${fraction}`;
  const point = whole.length + power;
  const text =
    point <= 0
      ? decimalOf("0", `${"0".repeat(-point)}${digits}`)
      : point >= digits.length
        ? decimalOf(digits.padEnd(point, "0"), "")
        : decimalOf(digits.slice(0, point), digits.slice(point));
  // Trailing zeros of the fraction say nothing here.
  return text.includes(".") ? text.replace(/\.?0+$/, "") : text;
};

type Split = { whole: string; fraction: string } | NumberProblem;

const DIGITS = /^\d+$/;

/** The whole part may be grouped by spaces (any language); the fraction is digits only. */
const wholeGroups = (whole: string, fraction: string): Split => {
  if (fraction !== "" && !DIGITS.test(fraction)) return { code: "grouping" };
  if (!whole.includes(" "))
    return whole === "" || DIGITS.test(whole) ? { whole, fraction } : { code: "grouping" };
  const groups = whole.split(" ");
  return isGrouping(groups) ? { whole: groups.join(""), fraction } : { code: "grouping" };
};

/** English: a point starts the fraction; commas (or spaces) separate thousands. */
const splitEnglish = (body: string): Split => {
  const points = body.split(".").length - 1;
  const commas = body.split(",").length - 1;
  if (points > 1) {
    // "1.234.567": points between thousands, as much of Europe writes.
    const groups = body.split(/[. ]/);
    return commas === 0 && isGrouping(groups)
      ? { code: "point_grouping", reading: decimalOf(groups.join(""), "") }
      : { code: "grouping" };
  }
  if (points === 1 && commas > 0 && body.lastIndexOf(",") > body.indexOf(".")) {
    // "1.234,56": a point between thousands and a decimal comma.
    const [whole = "", fraction = ""] = body.split(",");
    return commas === 1 && isGrouping(whole.split(/[. ]/)) && DIGITS.test(fraction)
      ? { code: "other_convention", reading: decimalOf(whole, fraction) }
      : { code: "grouping" };
  }
  const [whole = "", fraction = ""] = body.split(".");
  if (commas === 0) return wholeGroups(whole, fraction);
  const groups = whole.split(/[, ]/);
  if (isGrouping(groups)) return wholeGroups(groups.join(""), fraction);
  // "1,50", "0,000079", "1 234,56": a decimal comma, which English does not write.
  if (points === 0 && commas === 1) {
    const [left = "", right = ""] = whole.split(",");
    const leftOk = left === "" || DIGITS.test(left) || isGrouping(left.split(" "));
    if (leftOk && DIGITS.test(right)) return { code: "comma_decimal", reading: decimalOf(left, right) };
  }
  return { code: "grouping" };
};

/** Russian and Uzbek: a comma starts the fraction, spaces separate thousands; a point only where it cannot be misread. */
const splitRussian = (body: string): Split => {
  const points = body.split(".").length - 1;
  const commas = body.split(",").length - 1;
  const comma = body.indexOf(",");
  if (commas > 0 && points > 0 && body.lastIndexOf(".") > body.lastIndexOf(",")) {
    // "1,234.56": English, commas between thousands and a point before the fraction.
    const [whole = "", fraction = ""] = body.split(".");
    return points === 1 && isGrouping(whole.split(/[, ]/)) && DIGITS.test(fraction)
      ? { code: "other_convention", reading: decimalOf(whole, fraction) }
      : { code: "grouping" };
  }
  if (commas > 1) {
    // "1,234,567": English thousands.
    const groups = body.split(/[, ]/);
    return points === 0 && isGrouping(groups)
      ? { code: "other_convention", reading: decimalOf(groups.join(""), "") }
      : { code: "grouping" };
  }
  if (commas === 1) {
    const whole = body.slice(0, comma);
    const fraction = body.slice(comma + 1);
    if (points === 0) return wholeGroups(whole, fraction);
    // "1.234,56": points between thousands before the decimal comma; no other reading.
    const groups = whole.split(/[. ]/);
    return isGrouping(groups) ? wholeGroups(groups.join(""), fraction) : { code: "grouping" };
  }
  if (points > 1) {
    // "1.234.567": points between thousands (two points cannot both start a fraction).
    const groups = body.split(/[. ]/);
    return isGrouping(groups) ? { whole: groups.join(""), fraction: "" } : { code: "grouping" };
  }
  if (points === 1) {
    const [whole = "", fraction = ""] = body.split(".");
    // "12.650": 12 650 to whoever groups thousands with points, 12,65 to whoever types a decimal point.
    if (isGrouping([...whole.split(" "), fraction])) {
      return {
        code: "ambiguous",
        // The fraction's value, as 12,65 (its trailing zero says nothing then).
        readings: [decimalOf(`${whole}${fraction}`, ""), decimalOf(whole, fraction.replace(/0+$/, ""))],
      };
    }
    // "1234567.89", "0.000079": a decimal point typed on a numeric keypad; no other reading.
    return wholeGroups(whole, fraction);
  }
  return wholeGroups(body, "");
};

/**
 * What `text` means as a number in `locale`, under the field's `rules`: the exact value, or the
 * problem that keeps it from being one (with the readings a message can offer).
 */
export const readNumber = (text: string, locale: Locale, rules: NumberRules): NumberReading => {
  let rest = normalize(text);
  if (rest === "") return problem({ code: "empty" });
  let negative = false;
  const takeSign = () => {
    if (MINUS.test(rest)) {
      negative = true;
      rest = rest.slice(1).trim();
    } else if (rest.startsWith("+")) {
      rest = rest.slice(1).trim();
    }
  };
  takeSign();
  const withoutCode = stripCurrency(rest, rules.currency);
  if (withoutCode !== rest) {
    rest = withoutCode;
    if (!negative) takeSign();
  }
  const exponent = EXPONENT.exec(rest);
  if (exponent) {
    const full = expandExponent(exponent);
    return problem({ code: "exponent", full: full && negative ? `-${full}` : full });
  }
  if (!/^[\d .,]+$/.test(rest) || !/\d/.test(rest)) return problem({ code: "not_a_number" });
  if (/[ .,]{2}/.test(rest)) return problem({ code: "grouping" });

  const split = locale === "en" ? splitEnglish(rest) : splitRussian(rest);
  if ("code" in split) return problem(split);
  const { whole, fraction } = split;
  if (fraction.length > rules.fractionDigits) {
    // "12.650" or "12,650" read as a fraction for a currency of 2 digits: perhaps thousands were meant.
    const grouped = /^[1-9]\d{0,2}$/.test(whole) && fraction.length === 3 ? `${whole}${fraction}` : null;
    return problem({ code: "fraction_digits", count: fraction.length, max: rules.fractionDigits, grouped });
  }
  const digits = wholeDigits(whole || "0");
  if (rules.maxWholeDigits !== undefined && digits.length > rules.maxWholeDigits)
    return problem({ code: "too_many_digits", max: rules.maxWholeDigits });
  const magnitude = BigInt(`${digits}${fraction.padEnd(rules.fractionDigits, "0")}`);
  if (rules.maxScaled !== undefined && magnitude > rules.maxScaled) {
    const scale = 10n ** BigInt(rules.fractionDigits);
    const max = rules.maxScaled;
    const maxFraction = rules.fractionDigits
      ? (max % scale).toString().padStart(rules.fractionDigits, "0")
      : "";
    return problem({ code: "too_large", max: decimalOf((max / scale).toString(), maxFraction) });
  }
  const scaled = negative ? -magnitude : magnitude;
  if (rules.sign === "positive" && scaled <= 0n) return problem({ code: "not_positive" });
  if (rules.sign === "nonNegative" && scaled < 0n) return problem({ code: "negative" });
  const trimmed = fraction.replace(/0+$/, "");
  const decimal = `${scaled < 0n ? "-" : ""}${digits}${trimmed ? `.${trimmed}` : ""}`;
  return { ok: true, decimal, scaled };
};

/** An amount of a currency with `minorUnits` digits: at most int64 minor units, as the server takes. */
export const amountRules = (
  currency: string | undefined,
  minorUnits: number,
  sign: NumberRules["sign"] = "positive",
): NumberRules => ({ fractionDigits: minorUnits, maxScaled: INT64_MAX, sign, currency });

/** An exchange rate: positive, at most 12 digits before the separator and 12 after (the server's ZRate). */
export const RATE_RULES: NumberRules = {
  fractionDigits: RATE_DIGITS.fraction,
  maxWholeDigits: RATE_DIGITS.whole,
  sign: "positive",
};

/** A plain decimal string ("-1234.5") as the language writes it ("-1,234.5", "-1 234,5"), exactly. */
export const formatDecimal = (
  decimal: string,
  locale: Locale,
  options: { fractionDigits?: number } = {},
): string =>
  new Intl.NumberFormat(locale === "uz" ? "ru" : locale, {
    minimumFractionDigits: options.fractionDigits ?? 0,
    maximumFractionDigits: options.fractionDigits ?? 20,
  }).format(decimal as `${number}`);

/** What a message is about: an amount of a currency, or a rate. */
export type NumberSubject = { kind: "amount"; currency: string } | { kind: "rate" };

type Translate = (key: string, params?: Record<string, string | number>) => string;

/** "1.50" keeps its typed trailing zero when shown back. */
const shown = (decimal: string, locale: Locale) =>
  formatDecimal(decimal, locale, { fractionDigits: decimal.split(".")[1]?.length ?? 0 });

/**
 * The sentence for a refused number, in the user's language: how the text was read and what to type
 * instead (both in the language's own format). `t` translates the "ui" namespace's keys.
 */
export const numberMessage = (
  refused: NumberProblem,
  typed: string,
  locale: Locale,
  t: Translate,
  subject: NumberSubject,
): string => {
  const quoted = typed.trim();
  const example = formatDecimal("1234567.89", locale);
  const key = (name: string) => `ui:number.${name}`;
  switch (refused.code) {
    case "empty":
      return t(key("required"));
    case "not_a_number":
      return t(key("notANumber"), { typed: quoted, example });
    case "exponent":
      return refused.full === null
        ? t(key("exponentGeneric"), { typed: quoted, example })
        : t(key("exponent"), { typed: quoted, full: shown(refused.full, locale) });
    case "comma_decimal":
      return t(key("commaDecimal"), { typed: quoted, reading: shown(refused.reading, locale) });
    case "point_grouping":
      return t(key("pointGrouping"), { typed: quoted, reading: shown(refused.reading, locale) });
    case "other_convention":
      return t(key("otherConvention"), { typed: quoted, reading: shown(refused.reading, locale) });
    case "ambiguous":
      return t(key("ambiguous"), {
        typed: quoted,
        first: shown(refused.readings[0], locale),
        second: shown(refused.readings[1], locale),
      });
    case "grouping":
      return t(key("grouping"), { typed: quoted, example });
    case "fraction_digits": {
      const params = { typed: quoted, max: refused.max, count: refused.count };
      const sentence =
        subject.kind === "rate"
          ? t(key("fractionDigitsRate"), params)
          : refused.max === 0
            ? t(key("fractionDigitsWhole"), { currency: subject.currency })
            : t(key("fractionDigitsAmount"), { ...params, currency: subject.currency });
      return refused.grouped === null
        ? sentence
        : `${sentence}. ${t(key("groupedHint"), { grouped: formatDecimal(refused.grouped, locale) })}`;
    }
    case "too_large":
      return t(key("tooLarge"), { typed: quoted, max: shown(refused.max, locale) });
    case "too_many_digits":
      return t(key("tooManyDigits"), { max: refused.max });
    case "not_positive":
      return t(key("notPositive"));
    case "negative":
      return t(key("negative"));
  }
};

/** An amount in minor units as the language types it, for an edit form to start from ("9 750 000,50"). */
export const amountText = (minor: string | bigint, minorUnits: number, locale: Locale): string => {
  const value = typeof minor === "bigint" ? minor : BigInt(minor);
  const negative = value < 0n;
  const digits = (negative ? -value : value).toString().padStart(minorUnits + 1, "0");
  const whole = minorUnits === 0 ? digits : digits.slice(0, -minorUnits);
  const fraction = minorUnits === 0 ? "" : `.${digits.slice(-minorUnits)}`;
  return formatDecimal(`${negative ? "-" : ""}${whole}${fraction}`, locale, { fractionDigits: minorUnits });
};
