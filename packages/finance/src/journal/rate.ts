import { INT64_MAX, INT64_MIN, RATE_PATTERN } from "@hisob/kernel/schema";

/**
 * amount × rate rounded half away from zero, in exact integer arithmetic: a journal line's or a
 * revalued balance's base-currency value (docs/decisions/0100-manual-journals-and-revaluation.md).
 * Null when the result is outside int64 (it could not be stored): callers answer that as a field
 * error on the rate, a form as an amount it cannot value.
 */
export const multiplyRateWithin = (amount: bigint, rate: string): bigint | null => {
  if (!RATE_PATTERN.test(rate)) throw new RangeError(`Invalid rate "${rate}"`);
  const [whole = "0", fraction = ""] = rate.split(".");
  const scale = 10n ** BigInt(fraction.length);
  const product = amount * BigInt(whole + fraction);
  const magnitude = product < 0n ? -product : product;
  const rounded = (magnitude * 2n + scale) / (2n * scale);
  const result = product < 0n ? -rounded : rounded;
  return result < INT64_MIN || result > INT64_MAX ? null : result;
};

/** {@link multiplyRateWithin}, throwing on a result outside int64. */
export const multiplyRate = (amount: bigint, rate: string): bigint => {
  const result = multiplyRateWithin(amount, rate);
  if (result === null) throw new RangeError("amount out of int64 range");
  return result;
};

/** A stored rate (`numeric` text, up to 20 fraction digits) as the wire writes one: ≤ 12 fraction digits, no trailing zeros. */
export const normalizeRate = (text: string): string => {
  const [whole = "0", fraction = ""] = text.split(".");
  const kept = fraction.slice(0, 12).replace(/0+$/, "");
  return kept === "" ? whole : `${whole}.${kept}`;
};
