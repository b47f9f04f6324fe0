import { describe, expect, it } from "vitest";
import { dateMessage, readDate } from "./dates";
import { en } from "./locales/en";
import { ru } from "./locales/ru";
import { uz } from "./locales/uz";
import type { Locale } from "./money";
import {
  amountRules,
  amountText,
  type NumberProblem,
  type NumberRules,
  numberMessage,
  RATE_RULES,
  readNumber,
} from "./numbers";

/*
 * The one reader of typed numbers, per language: what each typed string is worth (an amount of UZS,
 * 2 minor digits, as minor units; a rate as its decimal) or why it is refused.
 */

const UZS = amountRules("UZS", 2);
const SIGNED_UZS = amountRules("UZS", 2, "any");

/** A typed string → minor units, a rate's decimal, or the refusal's code. */
const outcome = (text: string, locale: Locale, rules: NumberRules): string => {
  const reading = readNumber(text, locale, rules);
  if (!reading.ok) return `refused: ${reading.problem.code}`;
  return rules === RATE_RULES ? reading.decimal : reading.scaled.toString();
};

type Row = [typed: string, en: string, ru: string, uz: string];

describe("amounts (UZS, 2 digits after the separator) → minor units, per language", () => {
  const rows: Row[] = [
    // English groups thousands with commas; Russian and Uzbek write the fraction after a comma.
    ["12,650", "1265000", "refused: fraction_digits", "refused: fraction_digits"],
    // A point before three digits: a fraction in English (too long for UZS), thousands or a fraction in ru/uz.
    ["12.650", "refused: fraction_digits", "refused: ambiguous", "refused: ambiguous"],
    ["12 650", "1265000", "1265000", "1265000"],
    ["1,50", "refused: comma_decimal", "150", "150"],
    ["1.234,56", "refused: other_convention", "123456", "123456"],
    ["1,234.56", "123456", "refused: other_convention", "refused: other_convention"],
    ["0,000079", "refused: comma_decimal", "refused: fraction_digits", "refused: fraction_digits"],
    ["1,234,567.89", "123456789", "refused: other_convention", "refused: other_convention"],
    ["1234567.89", "123456789", "123456789", "123456789"],
    ["1 234 567,89", "refused: comma_decimal", "123456789", "123456789"],
    ["1234567,89", "refused: comma_decimal", "123456789", "123456789"],
    ["1.234.567", "refused: point_grouping", "123456700", "123456700"],
    // The app's own display of money, currency and all (no-break spaces in ru and uz).
    ["UZS 1,234,567.89", "123456789", "refused: other_convention", "refused: other_convention"],
    ["1\u00a0234\u00a0567,89\u00a0UZS", "refused: comma_decimal", "123456789", "123456789"],
    ["1\u202f234,5", "refused: comma_decimal", "123450", "123450"],
    // Full-width digits and separators (an IME's).
    ["１２３４５", "1234500", "1234500", "1234500"],
    ["１，２３４．５", "123450", "refused: other_convention", "refused: other_convention"],
    ["−5", "refused: not_positive", "refused: not_positive", "refused: not_positive"],
    ["0", "refused: not_positive", "refused: not_positive", "refused: not_positive"],
    ["1e3", "refused: exponent", "refused: exponent", "refused: exponent"],
    ["99999999999999999999", "refused: too_large", "refused: too_large", "refused: too_large"],
    ["92233720368547758.07", "9223372036854775807", "9223372036854775807", "9223372036854775807"],
    ["92 233 720 368 547 758,08", "refused: comma_decimal", "refused: too_large", "refused: too_large"],
    ["", "refused: empty", "refused: empty", "refused: empty"],
    ["   ", "refused: empty", "refused: empty", "refused: empty"],
    ["12abc", "refused: not_a_number", "refused: not_a_number", "refused: not_a_number"],
    ["USD 5", "refused: not_a_number", "refused: not_a_number", "refused: not_a_number"],
    ["1..5", "refused: grouping", "refused: grouping", "refused: grouping"],
    ["1 23 456", "refused: grouping", "refused: grouping", "refused: grouping"],
    ["12,34,567", "refused: grouping", "refused: grouping", "refused: grouping"],
    [".5", "50", "50", "50"],
    [",5", "refused: comma_decimal", "50", "50"],
    ["007", "700", "700", "700"],
  ];
  it.each(rows)("%s → en %s, ru %s, uz %s", (typed, inEn, inRu, inUz) => {
    expect(outcome(typed, "en", UZS)).toBe(inEn);
    expect(outcome(typed, "ru", UZS)).toBe(inRu);
    expect(outcome(typed, "uz", UZS)).toBe(inUz);
  });

  it("a sign where the field takes one (an opening balance of an overdraft account): −, -, the app's own -UZS", () => {
    expect(outcome("−5", "en", SIGNED_UZS)).toBe("-500");
    expect(outcome("-1 234,5", "ru", SIGNED_UZS)).toBe("-123450");
    expect(outcome("-UZS 0.05", "en", SIGNED_UZS)).toBe("-5");
    expect(outcome("－７", "uz", SIGNED_UZS)).toBe("-700");
    expect(outcome("-0", "en", SIGNED_UZS)).toBe("0");
    expect(outcome("−5", "en", amountRules("UZS", 2, "nonNegative"))).toBe("refused: negative");
  });

  it("a currency of 0 or 3 digits: JPY whole numbers, KWD fils", () => {
    expect(outcome("1,000", "en", amountRules("JPY", 0))).toBe("1000");
    expect(outcome("1,5", "ru", amountRules("JPY", 0))).toBe("refused: fraction_digits");
    expect(outcome("1.234", "en", amountRules("KWD", 3))).toBe("1234");
    expect(outcome("1,234", "ru", amountRules("KWD", 3))).toBe("1234");
  });
});

describe("rates (up to 12 digits before the separator and 12 after) → their decimal, per language", () => {
  const rows: Row[] = [
    ["12,650", "12650", "12.65", "12.65"],
    ["12.650", "12.65", "refused: ambiguous", "refused: ambiguous"],
    ["12 650", "12650", "12650", "12650"],
    ["0,000079", "refused: comma_decimal", "0.000079", "0.000079"],
    ["0.0000790513834", "refused: fraction_digits", "refused: fraction_digits", "refused: fraction_digits"],
    ["0.000079051383", "0.000079051383", "0.000079051383", "0.000079051383"],
    ["0,000079051383", "refused: comma_decimal", "0.000079051383", "0.000079051383"],
    ["12650.500000000000", "12650.5", "12650.5", "12650.5"],
    [
      "999999999999.999999999999",
      "999999999999.999999999999",
      "999999999999.999999999999",
      "999999999999.999999999999",
    ],
    ["1000000000000", "refused: too_many_digits", "refused: too_many_digits", "refused: too_many_digits"],
    [
      "99999999999999999999",
      "refused: too_many_digits",
      "refused: too_many_digits",
      "refused: too_many_digits",
    ],
    ["１２６５０", "12650", "12650", "12650"],
    ["−5", "refused: not_positive", "refused: not_positive", "refused: not_positive"],
    ["0,00", "refused: comma_decimal", "refused: not_positive", "refused: not_positive"],
    ["1e3", "refused: exponent", "refused: exponent", "refused: exponent"],
  ];
  it.each(rows)("%s → en %s, ru %s, uz %s", (typed, inEn, inRu, inUz) => {
    expect(outcome(typed, "en", RATE_RULES)).toBe(inEn);
    expect(outcome(typed, "ru", RATE_RULES)).toBe(inRu);
    expect(outcome(typed, "uz", RATE_RULES)).toBe(inUz);
  });
});

const CATALOGUES = { en, ru, uz };
const translate =
  (locale: Locale) =>
  (key: string, params: Record<string, string | number> = {}) => {
    const template = key
      .replace(/^ui:/, "")
      .split(".")
      .reduce<unknown>((node, part) => (node as Record<string, unknown>)[part], CATALOGUES[locale]);
    if (typeof template !== "string") throw new Error(`no message ${key} in ${locale}`);
    return template.replace(/\{\{(\w+)\}\}/g, (_, name: string) => {
      if (!(name in params)) throw new Error(`${key} needs ${name}`);
      return String(params[name]);
    });
  };
const nbsp = (text: string) => text.replace(/[\u00a0\u202f]/g, " ");
const refusal = (typed: string, locale: Locale, rules: NumberRules = UZS) => {
  const reading = readNumber(typed, locale, rules);
  if (reading.ok) throw new Error(`${typed} was read`);
  const subject =
    rules === RATE_RULES ? { kind: "rate" as const } : { kind: "amount" as const, currency: "UZS" };
  return nbsp(numberMessage(reading.problem, typed, locale, translate(locale), subject));
};

describe("a refusal says how the text was read and what to type, in the language's own format", () => {
  it("English: twelve thousand six hundred fifty, never 12.65", () => {
    expect(refusal("1,50", "en")).toBe(
      "In English a comma separates thousands, so “1,50” is not a number. For a fraction, type a point: 1.50",
    );
    expect(refusal("12.650", "en")).toBe(
      "A UZS amount has at most 2 digits after the point; “12.650” has 3. Did you mean 12,650?",
    );
    expect(refusal("1.234,56", "en")).toContain("Type 1,234.56");
    expect(refusal("99999999999999999999", "en")).toBe(
      "“99999999999999999999” is too large: at most 92,233,720,368,547,758.07",
    );
    expect(refusal("1e3", "en")).toBe("“1e3” is how a computer writes 1,000: type the number in full");
    expect(refusal("12,65", "en", RATE_RULES)).toContain("type a point: 12.65");
  });

  it("Russian and Uzbek: both readings of 12.650, the fraction after a comma", () => {
    expect(refusal("12.650", "ru")).toBe(
      "«12.650» можно прочитать как 12 650 или как 12,65: введите то, что имеете в виду",
    );
    expect(refusal("1,234.56", "ru")).toContain("Введите 1 234,56");
    expect(refusal("12,650", "ru")).toBe(
      "В сумме UZS не больше 2 знаков после запятой, а в «12,650» их 3. Может быть, имелось в виду 12 650?",
    );
    expect(refusal("12.650", "uz")).toBe(
      "“12.650” ni 12 650 yoki 12,65 deb oʻqish mumkin: nazarda tutganingizni kiriting",
    );
    // The hint's words match its example: a comma, "vergul", never "nuqta" (the point).
    const digits = refusal("0,001", "uz");
    expect(digits).toContain("verguldan keyin");
    expect(digits).not.toContain("nuqta");
    expect(refusal("99999999999999999999", "ru")).toBe(
      "«99999999999999999999» — слишком большое число: не больше 92 233 720 368 547 758,07",
    );
  });

  it("every refusal has its words in every language, with every value filled in", () => {
    const samples: Array<[string, NumberRules]> = [
      ["", UZS],
      ["abc", UZS],
      ["1e3", UZS],
      ["1e999", UZS],
      ["1,50", UZS],
      ["1.234.567", UZS],
      ["1.234,56", UZS],
      ["1,234.56", UZS],
      ["12.650", UZS],
      ["1 23", UZS],
      ["0.001", UZS],
      ["0.5", amountRules("JPY", 0)],
      ["0.0000000000001", RATE_RULES],
      ["99999999999999999999", UZS],
      ["99999999999999999999", RATE_RULES],
      ["0", UZS],
      ["-1", amountRules("UZS", 2, "nonNegative")],
    ];
    const seen = new Set<NumberProblem["code"]>();
    for (const locale of ["en", "ru", "uz"] as const) {
      for (const [typed, rules] of samples) {
        const reading = readNumber(typed, locale, rules);
        if (reading.ok) continue;
        seen.add(reading.problem.code);
        const text = refusal(typed, locale, rules);
        expect(text, `${locale} ${typed}`).not.toMatch(/\{\{|undefined|NaN/);
      }
    }
    expect([...seen].sort()).toEqual(
      [
        "ambiguous",
        "comma_decimal",
        "empty",
        "exponent",
        "fraction_digits",
        "grouping",
        "negative",
        "not_a_number",
        "not_positive",
        "other_convention",
        "point_grouping",
        "too_large",
        "too_many_digits",
      ].sort(),
    );
  });
});

describe("an amount as an edit form starts from it", () => {
  it("9750000.50 in each language's format, read back to the same minor units", () => {
    expect(amountText("975000050", 2, "en")).toBe("9,750,000.50");
    expect(nbsp(amountText("975000050", 2, "ru"))).toBe("9 750 000,50");
    expect(nbsp(amountText("975000050", 2, "uz"))).toBe("9 750 000,50");
    expect(amountText("7", 0, "en")).toBe("7");
    expect(nbsp(amountText(-123456n, 3, "ru"))).toBe("-123,456");
    for (const locale of ["en", "ru", "uz"] as const) {
      for (const minor of ["1", "975000050", "9223372036854775807", "100"]) {
        const reading = readNumber(amountText(minor, 2, locale), locale, UZS);
        expect(reading.ok && reading.scaled.toString(), `${locale} ${minor}`).toBe(minor);
      }
    }
  });
});

describe("dates typed as the language writes them", () => {
  const rows: Array<[typed: string, en: string, ru: string]> = [
    ["02/28/2026", "2026-02-28", "refused: format"],
    ["28.02.2026", "refused: format", "2026-02-28"],
    ["28022026", "refused: format", "2026-02-28"],
    ["2026-02-28", "2026-02-28", "2026-02-28"],
    ["02/31/2026", "refused: no_day", "refused: format"],
    ["31.02.2026", "refused: format", "refused: no_day"],
    ["29.02.2028", "refused: format", "2028-02-29"],
    ["29.02.2100", "refused: format", "refused: no_day"],
    ["13/01/2026", "refused: no_month", "refused: format"],
    ["01.13.2026", "refused: format", "refused: no_month"],
    ["0000-01-01", "refused: range", "refused: range"],
    ["1899-12-31", "refused: range", "refused: range"],
    ["01.01.26", "refused: format", "refused: format"],
    // Two-digit years and typo years: refused, never completed or cut to a year that looks right.
    ["01/02/26", "refused: format", "refused: format"],
    ["26-02-01", "refused: format", "refused: format"],
    ["01/02/2O26", "refused: format", "refused: format"],
    ["01.02.2O26", "refused: format", "refused: format"],
    ["2O26-02-01", "refused: format", "refused: format"],
    ["01/02/20266", "refused: format", "refused: format"],
    ["01.02.20266", "refused: format", "refused: format"],
    ["20266-02-01", "refused: format", "refused: format"],
    ["010220266", "refused: format", "refused: format"],
    ["01/02/0026", "refused: range", "refused: format"],
    ["01.02.0026", "refused: format", "refused: range"],
    ["0026-02-01", "refused: range", "refused: range"],
    ["０１.０２.２０２６", "refused: format", "2026-02-01"],
    ["", "refused: format", "refused: format"],
  ];
  const outcomeOf = (typed: string, locale: Locale) => {
    const reading = readDate(typed, locale);
    return reading.ok ? reading.iso : `refused: ${reading.problem.code}`;
  };
  it.each(rows)("%s → en %s, ru and uz %s", (typed, inEn, inRu) => {
    expect(outcomeOf(typed, "en")).toBe(inEn);
    expect(outcomeOf(typed, "ru")).toBe(inRu);
    expect(outcomeOf(typed, "uz")).toBe(inRu);
  });

  it("says what is wrong, in the language's own date format", () => {
    const say = (typed: string, locale: Locale) => {
      const reading = readDate(typed, locale);
      if (reading.ok) throw new Error(`${typed} was read`);
      return dateMessage(reading.problem, typed, locale, translate(locale), "2026-11-22");
    };
    expect(say("02/31/2026", "en")).toBe("“02/31/2026” is not a date: that month ends on 02/28/2026");
    expect(say("13/01/2026", "en")).toBe("“13/01/2026” is not a date: there is no month 13");
    expect(say("31.02.2026", "en")).toBe(
      "“31.02.2026” is not a date: type it as mm/dd/yyyy, like 11/22/2026",
    );
    expect(say("31.02.2026", "ru")).toBe("«31.02.2026» — не дата: этот месяц заканчивается 28.02.2026");
    expect(say("0000-01-01", "uz")).toBe(
      "“0000-01-01” hisob davridan tashqarida: 01.01.1900 dan 31.12.9999 gacha boʻlgan sanani kiriting",
    );
  });
});
