import {
  ZCurrencyCode,
  ZIsoDate,
  ZMinorAmount,
  ZPagination,
  ZQuantity,
  ZQuantityChange,
  ZQueryBoolean,
  ZRequiredLine,
  ZText,
} from "@hisob/kernel/schema";
import { z } from "zod";

export const INVENTORY_MOVEMENT_TYPES = ["receipt", "issue", "adjustment"] as const;

/** Letters, digits and . _ - / # + (no spaces): what labels and scanners carry. */
const ZSku = ZRequiredLine(64).refine((sku) => /^[\p{L}\p{N}._\-/#+]+$/u.test(sku), {
  message: "must contain only letters, digits and . _ - / # +",
});
const ZUnit = ZRequiredLine(16);
/** Minor units per one unit of the item, ≥ 0. */
const ZUnitPrice = ZMinorAmount.refine((amount) => !amount.startsWith("-"), {
  message: "must not be negative",
});

export const ZCreateInventoryItemInput = z
  .object({
    name: ZRequiredLine(200),
    sku: ZSku,
    unit: ZUnit.default("pcs"),
    /** Opening quantity; recorded as the item's first movement (an adjustment) when above zero. */
    quantity: ZQuantity.default("0"),
    unitPrice: ZUnitPrice.default("0"),
    currency: ZCurrencyCode,
    description: ZText(1000).default(""),
  })
  .strict();
export type TCreateInventoryItemInput = z.input<typeof ZCreateInventoryItemInput>;

/** Everything but the quantity, which only movements change. */
export const ZUpdateInventoryItemInput = z
  .object({
    name: ZRequiredLine(200).optional(),
    sku: ZSku.optional(),
    unit: ZUnit.optional(),
    unitPrice: ZUnitPrice.optional(),
    currency: ZCurrencyCode.optional(),
    description: ZText(1000).optional(),
  })
  .strict();
export type TUpdateInventoryItemInput = z.input<typeof ZUpdateInventoryItemInput>;

export const INVENTORY_SORT_FIELDS = [
  "name",
  "sku",
  "quantity",
  "unitPrice",
  "createdAt",
  "updatedAt",
] as const;

export const ZListInventoryQuery = ZPagination.extend({
  sortBy: z.enum(INVENTORY_SORT_FIELDS).default("name"),
  order: z.enum(["asc", "desc"]).default("asc"),
  currency: ZCurrencyCode.optional(),
  /** true: only items with quantity above zero; false: only those at zero. */
  inStock: ZQueryBoolean.optional(),
  /** Substring of the name, SKU or description, case-insensitive. */
  search: ZRequiredLine(100).optional(),
});
export type TListInventoryQuery = z.input<typeof ZListInventoryQuery>;

export const ZCreateInventoryMovementInput = z
  .object({
    type: z.enum(INVENTORY_MOVEMENT_TYPES),
    /**
     * receipt: the quantity received (> 0); issue: the quantity issued (> 0); adjustment: the
     * signed correction (e.g. "-2" after a stocktake found two fewer).
     */
    quantity: ZQuantityChange,
    date: ZIsoDate,
    comment: ZText(1000).default(""),
  })
  .strict()
  .refine((input) => input.type === "adjustment" || !input.quantity.startsWith("-"), {
    message: "must be positive for a receipt or an issue (only an adjustment is signed)",
    path: ["quantity"],
  });
export type TCreateInventoryMovementInput = z.input<typeof ZCreateInventoryMovementInput>;

export const ZListInventoryMovementsQuery = ZPagination.extend({
  type: z.enum(INVENTORY_MOVEMENT_TYPES).optional(),
  from: ZIsoDate.optional().describe("First date, inclusive"),
  to: ZIsoDate.optional().describe("Last date, inclusive"),
  /** The order movements were applied in (desc: newest first). */
  order: z.enum(["asc", "desc"]).default("desc"),
}).refine((query) => !query.from || !query.to || query.from <= query.to, {
  message: "must not be before from",
  path: ["to"],
});
export type TListInventoryMovementsQuery = z.input<typeof ZListInventoryMovementsQuery>;

export const ZInventoryItemDto = z
  .object({
    id: z.uuid(),
    name: z.string(),
    sku: z.string(),
    unit: z.string(),
    /** Exact decimal string. */
    quantity: z.string(),
    /** Minor units of `currency` per unit, decimal string. */
    unitPrice: z.string(),
    currency: z.string(),
    description: z.string(),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .meta({ id: "InventoryItem" });
export type TInventoryItemDto = z.infer<typeof ZInventoryItemDto>;

export const ZInventoryMovementDto = z
  .object({
    id: z.uuid(),
    itemId: z.uuid(),
    type: z.enum(INVENTORY_MOVEMENT_TYPES),
    /** Signed change: receipts positive, issues negative. */
    quantity: z.string(),
    /** The item's quantity right after this movement. */
    quantityAfter: z.string(),
    date: z.iso.date(),
    comment: z.string(),
    createdBy: z.uuid(),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: "InventoryMovement" });
export type TInventoryMovementDto = z.infer<typeof ZInventoryMovementDto>;

export const ZInventoryMovementResult = z
  .object({
    item: ZInventoryItemDto,
    movement: ZInventoryMovementDto,
  })
  .meta({ id: "InventoryMovementResult" });
export type TInventoryMovementResult = z.infer<typeof ZInventoryMovementResult>;
