// Money arithmetic without zod: the browser's first screen formats and computes amounts and must not
// load a schema library for it. The wire schemas built on these are in ./money.ts.
// Money is bigint minor units + ISO 4217 code. On the wire, amounts are decimal strings of
// minor units (JSON numbers lose precision above 2^53) and rates are decimal strings: never floats.

export const INT64_MIN = -(2n ** 63n);
export const INT64_MAX = 2n ** 63n - 1n;

export type Money = { amount: bigint; currency: string };

const MINOR_PATTERN = /^-?(0|[1-9][0-9]{0,18})$/;
export const RATE_PATTERN = /^(0|[1-9][0-9]{0,11})(\.[0-9]{1,12})?$/;

/** Parses a decimal string of minor units; null when malformed or outside int64. */
export const parseMinor = (value: string): bigint | null => {
  if (!MINOR_PATTERN.test(value)) return null;
  const amount = BigInt(value);
  return amount < INT64_MIN || amount > INT64_MAX || value === "-0" ? null : amount;
};

export const formatMinor = (amount: bigint): string => amount.toString();

/** The most digits an entered rate has before and after its decimal point. */
export const RATE_DIGITS = { whole: 12, fraction: 12 } as const;

/** A positive decimal rate as the wire accepts it (what `ZRate` checks). */
export const isRate = (rate: string): boolean => RATE_PATTERN.test(rate) && /[1-9]/.test(rate);

/**
 * trunc(amount × rate) in exact integer arithmetic (bigint division truncates toward zero).
 * Refuses a result outside int64, like `addMinor`: it could not be stored.
 */
export const applyRate = (amount: bigint, rate: string): bigint => {
  if (!RATE_PATTERN.test(rate)) throw new RangeError(`Invalid rate "${rate}"`);
  const [whole = "0", fraction = ""] = rate.split(".");
  const scale = 10n ** BigInt(fraction.length);
  const result = (amount * BigInt(whole + fraction)) / scale;
  if (result < INT64_MIN || result > INT64_MAX) throw new RangeError("amount out of int64 range");
  return result;
};

/** Minor units → a plain decimal string in major units, e.g. (123456n, 2) → "1234.56". */
export const minorToMajorString = (amount: bigint, minorUnits: number): string => {
  if (!Number.isInteger(minorUnits) || minorUnits < 0)
    throw new RangeError(`Invalid minor units ${minorUnits}`);
  if (minorUnits === 0) return amount.toString();
  const negative = amount < 0n;
  const digits = (negative ? -amount : amount).toString().padStart(minorUnits + 1, "0");
  const whole = digits.slice(0, -minorUnits);
  const fraction = digits.slice(-minorUnits);
  return `${negative ? "-" : ""}${whole}.${fraction}`;
};

/** Sum that refuses to leave int64 (a balance that would overflow is a bug, not a wrap-around). */
export const addMinor = (a: bigint, b: bigint): bigint => {
  const sum = a + b;
  if (sum < INT64_MIN || sum > INT64_MAX) throw new RangeError("amount out of int64 range");
  return sum;
};
