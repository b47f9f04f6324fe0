import { addMinor } from "@hisob/kernel";
import { dateOf, toIsoDate } from "@hisob/kernel/schema";
import type { ComparePeriod } from "./reports.schema";

/*
 * Comparing a report with other periods (docs/api/finance.md, "Reports"): the compared period's
 * figures come from the same SQL as the report's own; here only the change and its percentage are
 * worked out, exactly, in minor units.
 */

export const compareListOf = (value: ComparePeriod | ComparePeriod[] | undefined): ComparePeriod[] =>
  value === undefined ? [] : [...new Set(Array.isArray(value) ? value : [value])];

const DAY_MS = 86_400_000;
const lastDayOfMonth = (year: number, month: number) => new Date(Date.UTC(year, month + 1, 0));

/** Whole calendar months: starts on a 1st and ends on a month's last day. */
const wholeMonths = (start: Date, end: Date) =>
  start.getUTCDate() === 1 &&
  end.getUTCDate() === lastDayOfMonth(end.getUTCFullYear(), end.getUTCMonth()).getUTCDate();

/** The same day `months` months earlier; a day the month lacks becomes its last day (29 Feb → 28 Feb). */
const monthsEarlier = (date: Date, months: number) => {
  const first = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() - months, 1));
  const last = lastDayOfMonth(first.getUTCFullYear(), first.getUTCMonth()).getUTCDate();
  return new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth(), Math.min(date.getUTCDate(), last)));
};

/**
 * The period a report is compared with. previousPeriod: the period of the same length that ends the
 * day before it starts — as many whole months when the report covers whole months (February after
 * January's 31 days is still "the previous month"), otherwise as many days. previousYear: the same
 * dates a year earlier (whole months stay whole: February 2025 → 1–29 February 2024).
 */
export const comparedPeriod = (
  compare: ComparePeriod,
  startDate: string,
  endDate: string,
): { startDate: string; endDate: string } => {
  const start = dateOf(startDate);
  const end = dateOf(endDate);
  const months =
    (end.getUTCFullYear() - start.getUTCFullYear()) * 12 + end.getUTCMonth() - start.getUTCMonth() + 1;
  const whole = wholeMonths(start, end);
  if (compare === "previousYear") {
    const first = monthsEarlier(start, 12);
    const last = whole ? lastDayOfMonth(end.getUTCFullYear() - 1, end.getUTCMonth()) : monthsEarlier(end, 12);
    return { startDate: toIsoDate(first), endDate: toIsoDate(last) };
  }
  const dayBefore = new Date(start.getTime() - DAY_MS);
  if (whole) return { startDate: toIsoDate(monthsEarlier(start, months)), endDate: toIsoDate(dayBefore) };
  const days = Math.round((end.getTime() - start.getTime()) / DAY_MS) + 1;
  return { startDate: toIsoDate(new Date(start.getTime() - days * DAY_MS)), endDate: toIsoDate(dayBefore) };
};

/** `a / b` rounded half away from zero (b > 0). */
const roundedDivision = (a: bigint, b: bigint) => {
  const negative = a < 0n;
  const magnitude = negative ? -a : a;
  const quotient = (magnitude * 2n + b) / (2n * b);
  return negative ? -quotient : quotient;
};

/** Hundredths as "12.50" / "-0.05". */
const hundredths = (value: bigint) => {
  const negative = value < 0n;
  const digits = (negative ? -value : value).toString().padStart(3, "0");
  return `${negative ? "-" : ""}${digits.slice(0, -2)}.${digits.slice(-2)}`;
};

/** A figure beside its compared value: the change and the change in % of the compared value (null for 0). */
export const comparedFigure = (current: string, base: string) => {
  const now = BigInt(current);
  const then = BigInt(base);
  const change = addMinor(now, -then);
  const magnitude = then < 0n ? -then : then;
  return {
    value: base,
    change: change.toString(),
    changePercent: magnitude === 0n ? null : hundredths(roundedDivision(change * 10_000n, magnitude)),
  };
};

/** Every figure named in `keys` of `current` beside the same of `base` (zero where base has none). */
export const comparedFigures = <K extends string>(
  keys: readonly K[],
  current: Record<K, string>,
  base: Partial<Record<K, string>> | undefined,
) =>
  Object.fromEntries(keys.map((key) => [key, comparedFigure(current[key], base?.[key] ?? "0")])) as Record<
    K,
    ReturnType<typeof comparedFigure>
  >;
