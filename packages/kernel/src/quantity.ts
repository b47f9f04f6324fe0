import { z } from "zod";

/*
 * Inventory quantities are exact decimals: NUMERIC(20, 6) in the database (up to 14 integer and
 * 6 fraction digits), decimal strings on the wire, never floats. Arithmetic happens in SQL
 * (numeric is exact); JavaScript only validates and normalises the text.
 */

export const QUANTITY_SCALE = 6;
const MAX_INTEGER_DIGITS = 14;

const QUANTITY = new RegExp(`^(0|[1-9][0-9]{0,${MAX_INTEGER_DIGITS - 1}})(\\.[0-9]{1,${QUANTITY_SCALE}})?$`);
const SIGNED_QUANTITY = new RegExp(
  `^-?(0|[1-9][0-9]{0,${MAX_INTEGER_DIGITS - 1}})(\\.[0-9]{1,${QUANTITY_SCALE}})?$`,
);

const isZero = (value: string) => !/[1-9]/.test(value);

const FORMAT = `a decimal string with at most ${MAX_INTEGER_DIGITS} digits before the point and ${QUANTITY_SCALE} after, like 12.5`;

/** A quantity ≥ 0 (an item's stock). */
export const ZQuantity = z
  .string()
  .regex(QUANTITY, { message: `must be ${FORMAT}` })
  .meta({ description: "Quantity as a decimal string", example: "12.5" });

/** A signed, non-zero change of quantity (adjustments may go either way). */
export const ZQuantityChange = z
  .string()
  .regex(SIGNED_QUANTITY, { message: `must be ${FORMAT}, optionally signed` })
  .refine((value) => !isZero(value), { message: "must not be zero" })
  .meta({ description: "Quantity change as a decimal string; negative decreases", example: "-3.25" });

/**
 * The canonical text of a numeric from the database or a validated input: no trailing fraction
 * zeros, no "-0" ("12.500000" → "12.5", "0.000000" → "0").
 */
export const normalizeQuantity = (value: string): string => {
  const negative = value.startsWith("-");
  let digits = negative ? value.slice(1) : value;
  if (digits.includes(".")) digits = digits.replace(/0+$/, "").replace(/\.$/, "");
  digits = digits.replace(/^0+(?=\d)/, "");
  if (isZero(digits)) return "0";
  return negative ? `-${digits}` : digits;
};

/** Negates a quantity string exactly (for an issue's change). */
export const negateQuantity = (value: string): string =>
  normalizeQuantity(value.startsWith("-") ? value.slice(1) : `-${value}`);
