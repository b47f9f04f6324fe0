import { ZCurrencyCode, ZLine, ZMinorAmount, ZRequiredLine } from "@hisob/kernel/schema";
import { z } from "zod";

/** Letters, digits and . _ - / # + (no spaces): what labels and scanners carry. */
export const ZSku = ZRequiredLine(64).refine((sku) => /^[\p{L}\p{N}._\-/#+]+$/u.test(sku), {
  message: "must contain only letters, digits and . _ - / # +",
});
/** Minor units, ≥ 0, as a decimal string. */
export const ZPrice = ZMinorAmount.refine((amount) => !amount.startsWith("-"), {
  message: "must not be negative",
});
const ZBarcode = ZLine(64).refine((value) => /^[0-9A-Za-z-]*$/.test(value), {
  message: "must contain only letters, digits and dashes",
});

export const ZCreateProductInput = z
  .object({
    sku: ZSku,
    name: ZRequiredLine(200),
    unit: ZRequiredLine(16).default("pcs"),
    price: ZPrice.default("0"),
    currency: ZCurrencyCode,
    barcode: ZBarcode.default(""),
  })
  .strict();
export type TCreateProductInput = z.input<typeof ZCreateProductInput>;

export const ZUpdateProductInput = z
  .object({
    sku: ZSku.optional(),
    name: ZRequiredLine(200).optional(),
    unit: ZRequiredLine(16).optional(),
    price: ZPrice.optional(),
    currency: ZCurrencyCode.optional(),
    barcode: ZBarcode.optional(),
  })
  .strict();
export type TUpdateProductInput = z.input<typeof ZUpdateProductInput>;

export const PRODUCT_SORT_FIELDS = ["name", "sku", "price", "createdAt", "updatedAt"] as const;

export const ZProductDto = z.object({
  id: z.uuid(),
  sku: z.string(),
  name: z.string(),
  unit: z.string(),
  /** Minor units of `currency`, decimal string. */
  price: z.string(),
  currency: z.string(),
  barcode: z.string(),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});
export type TProductDto = z.infer<typeof ZProductDto>;
