import { z } from "zod";
import { parseMinor, RATE_DIGITS, RATE_PATTERN } from "./money-math";

// The wire schemas of money; the arithmetic itself is in ./money-math.ts (no zod, browser-light).
export * from "./money-math";

/**
 * Wire schema for an amount in minor units: a decimal integer string within int64. It stays a
 * string (convert with `BigInt` after parsing), so parsing twice — at the transport and again in
 * the service — accepts the same value both times.
 */
export const ZMinorAmount = z
  .string()
  .refine((value) => parseMinor(value) !== null, {
    message: "must be an integer string of minor units within int64",
  })
  .meta({ description: "Amount in minor units as a decimal integer string", example: "1250000" });

/** A strictly positive amount (payments, expenses, transfers). */
export const ZPositiveMinorAmount = ZMinorAmount.refine(
  (amount) => !amount.startsWith("-") && amount !== "0",
  {
    message: "must be positive",
  },
);

/** Wire schema for an exchange rate: a positive decimal string (≤ 12 integer and 12 fraction digits). */
export const ZRate = z
  .string()
  .regex(RATE_PATTERN, {
    message: `must be a decimal string with at most ${RATE_DIGITS.whole} digits before the point and ${RATE_DIGITS.fraction} after, like 12650.5`,
  })
  .refine((rate) => /[1-9]/.test(rate), { message: "must be greater than zero" })
  .meta({ description: "Exchange rate as a decimal string", example: "12650.5" });

export const ZCurrencyCode = z.string().regex(/^[A-Z]{3}$/, { message: "must be an ISO 4217 code like UZS" });
