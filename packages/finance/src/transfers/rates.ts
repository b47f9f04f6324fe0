/*
 * Exchange rates in exact integer arithmetic (bigint), shared by the server and the apps (browser-safe:
 * no Node, no Prisma). A posting stores amount out A and amount in D (minor units) and a rate r in
 * destination minor units per origin minor unit with D = trunc(A × r) — the spec's rule. People enter
 * an exchange in one of three forms, each resolved here to (A, D, r):
 *
 *   amountReceived   D as given; r is the shortest decimal with trunc(A × r) = D.
 *   marketRate       "1 base = rate quote" in major units, either direction; D = trunc(A × q) with q
 *                    the quote converted to minor units per minor unit (exact, a fraction); r as above.
 *   rate             r as given (minor units per minor unit); D = trunc(A × r).
 */

/** A non-negative fraction num/den, den > 0. */
export type Ratio = { num: bigint; den: bigint };

/** "1 base = rate quote", major units. */
export type MarketQuote = { base: string; quote: string; rate: string };

export type CurrencyDigits = { code: string; minorUnits: number };

const pow10 = (digits: number): bigint => 10n ** BigInt(digits);

/** A validated decimal string ("12650.5") as a fraction. */
export const decimalRatio = (value: string): Ratio => {
  const [whole = "0", fraction = ""] = value.split(".");
  return { num: BigInt(whole + fraction), den: pow10(fraction.length) };
};

/**
 * A market quote as destination minor units per origin minor unit, for an exchange `from` → `to`.
 * The quote names the two currencies in either order; null when it names others.
 */
export const quoteRatio = (quote: MarketQuote, from: CurrencyDigits, to: CurrencyDigits): Ratio | null => {
  const q = decimalRatio(quote.rate);
  if (quote.base === from.code && quote.quote === to.code) {
    // 1 from = q to → one origin minor unit buys q × 10^to / 10^from destination minor units.
    return { num: q.num * pow10(to.minorUnits), den: q.den * pow10(from.minorUnits) };
  }
  if (quote.base === to.code && quote.quote === from.code) {
    // 1 to = q from → 1 from = 1/q to.
    return { num: q.den * pow10(to.minorUnits), den: q.num * pow10(from.minorUnits) };
  }
  return null;
};

/** trunc(amount × ratio), amount ≥ 0. */
export const applyRatio = (amount: bigint, ratio: Ratio): bigint => (amount * ratio.num) / ratio.den;

/** The most fraction digits a stored rate has (the column is numeric(40, 20)). */
export const STORED_RATE_FRACTION_DIGITS = 20;

/**
 * The shortest decimal r (fewest fraction digits, then the smallest) with trunc(amount × r) =
 * received, i.e. received/amount ≤ r < (received+1)/amount. Exists with at most 19 fraction digits
 * for any amount within int64 (the interval is wider than 10^-19).
 */
export const shortestRate = (amount: bigint, received: bigint): string => {
  if (amount <= 0n || received < 0n) throw new RangeError("amount must be positive, received not negative");
  for (let digits = 0; digits <= STORED_RATE_FRACTION_DIGITS; digits++) {
    const scale = pow10(digits);
    // ceil(received × scale / amount)
    const candidate = (received * scale + amount - 1n) / amount;
    if (candidate * amount < (received + 1n) * scale) return formatScaled(candidate, digits);
  }
  throw new RangeError("no rate within the stored precision");
};

/** n / 10^digits as a plain decimal string without trailing zeros ("12650", "0.0000790514"). */
export const formatScaled = (n: bigint, digits: number): string => {
  if (digits === 0) return n.toString();
  const text = n.toString().padStart(digits + 1, "0");
  const whole = text.slice(0, -digits);
  const fraction = text.slice(-digits).replace(/0+$/, "");
  return fraction ? `${whole}.${fraction}` : whole;
};

/** A decimal rate string without trailing zeros ("12650.500" → "12650.5", "1.000" → "1"). */
export const normalizeRate = (rate: string): string => {
  const { num, den } = decimalRatio(rate);
  return formatScaled(num, den.toString().length - 1);
};

/** ratio rounded half up to `digits` fraction digits, as a decimal string without trailing zeros. */
export const roundRatio = (ratio: Ratio, digits: number): string => {
  const scale = pow10(digits);
  return formatScaled((ratio.num * scale * 2n + ratio.den) / (ratio.den * 2n), digits);
};

/** A rate for people to read: 4 decimals from 1 up, else 6 significant digits. */
export const readableRatio = (ratio: Ratio): string => {
  if (ratio.num >= ratio.den) return roundRatio(ratio, 4);
  let digits = 4;
  while (digits < 30 && ratio.num * pow10(digits) < ratio.den * 100000n) digits++;
  return roundRatio(ratio, digits);
};

/**
 * What an exchange of `amount` origin minor units into `received` destination minor units means in
 * market convention: 1 origin = `rate` destination, in major units (exact fraction).
 */
export const majorRatio = (
  amount: bigint,
  received: bigint,
  from: CurrencyDigits,
  to: CurrencyDigits,
): Ratio => ({
  num: received * pow10(from.minorUnits),
  den: amount * pow10(to.minorUnits),
});

/**
 * The market-convention quote of an exchange, the way banks write it: the currency worth more as
 * the base ("1 USD = 12650 UZS" for both UZS→USD and USD→UZS).
 */
export const marketQuoteOf = (
  amount: bigint,
  received: bigint,
  from: CurrencyDigits,
  to: CurrencyDigits,
): MarketQuote => {
  const ratio = majorRatio(amount, received, from, to);
  if (ratio.num >= ratio.den) return { base: from.code, quote: to.code, rate: readableRatio(ratio) };
  return { base: to.code, quote: from.code, rate: readableRatio({ num: ratio.den, den: ratio.num }) };
};

/**
 * True when `ratio` is more than `marginPercent` away from `reference` (both in the same
 * direction): |ratio − reference| > reference × margin / 100, exactly.
 */
export const differsBeyond = (ratio: Ratio, reference: Ratio, marginPercent: number): boolean => {
  const left = ratio.num * reference.den;
  const right = reference.num * ratio.den;
  const diff = left > right ? left - right : right - left;
  return diff * 100n > right * BigInt(marginPercent);
};

/**
 * True when `ratio` is more than `factor` times `reference` or less than 1/`factor` of it (both in
 * the same direction, positive), exactly.
 */
export const beyondFactor = (ratio: Ratio, reference: Ratio, factor: number): boolean => {
  const left = ratio.num * reference.den;
  const right = reference.num * ratio.den;
  const times = BigInt(factor);
  return left > right * times || left * times < right;
};
