import { ZCurrencyCode, ZRequiredLine } from "@hisob/kernel/schema";
import { z } from "zod";

export const ZCurrencyDto = z
  .object({
    code: z.string(),
    name: z.string(),
    symbol: z.string(),
    /** Digits after the decimal point: amounts are integers of 10^-minorUnits. */
    minorUnits: z.number().int(),
    active: z.boolean(),
  })
  .meta({ id: "Currency" });
export type TCurrencyDto = z.infer<typeof ZCurrencyDto>;

export const ZCreateCurrencyInput = z
  .object({
    code: ZCurrencyCode,
    name: ZRequiredLine(100),
    symbol: ZRequiredLine(10),
    minorUnits: z.number().int().min(0).max(4),
  })
  .strict();

export const ZUpdateCurrencyInput = z
  .object({
    name: ZRequiredLine(100).optional(),
    symbol: ZRequiredLine(10).optional(),
    active: z.boolean().optional(),
  })
  .strict();

export const ZSelectCurrenciesInput = z.object({ codes: z.array(ZCurrencyCode).min(1).max(50) }).strict();
