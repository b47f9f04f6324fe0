import { ZCurrencyCode, ZIsoDate, ZQuantity, ZText } from "@hisob/kernel/schema";
import { z } from "zod";
import { ZPrice } from "../products/products.schema";

export const ORDER_KINDS = ["purchase", "sales"] as const;
export const ORDER_STATUSES = ["draft", "confirmed", "fulfilled", "cancelled"] as const;
export const MAX_ORDER_LINES = 200;

const ZUuid = z.uuid().transform((id) => id.toLowerCase());

export const ZOrderLineInput = z
  .object({
    productId: ZUuid,
    quantity: ZQuantity.refine((value) => !/^0+(\.0+)?$/.test(value), {
      message: "must be greater than zero",
    }),
    /** Minor units of the order's currency per unit; default: the product's price when in that currency. */
    unitPrice: ZPrice.optional(),
  })
  .strict();

export const ZCreateOrderInput = z
  .object({
    kind: z.enum(ORDER_KINDS),
    locationId: ZUuid,
    clientId: ZUuid.nullable().default(null),
    currency: ZCurrencyCode,
    date: ZIsoDate,
    note: ZText(2000).default(""),
    lines: z.array(ZOrderLineInput).min(1).max(MAX_ORDER_LINES),
  })
  .strict();
export type TCreateOrderInput = z.input<typeof ZCreateOrderInput>;

/** Only a draft changes; `lines` replaces all of them. */
export const ZUpdateOrderInput = z
  .object({
    locationId: ZUuid.optional(),
    clientId: ZUuid.nullable().optional(),
    currency: ZCurrencyCode.optional(),
    date: ZIsoDate.optional(),
    note: ZText(2000).optional(),
    lines: z.array(ZOrderLineInput).min(1).max(MAX_ORDER_LINES).optional(),
  })
  .strict();
export type TUpdateOrderInput = z.input<typeof ZUpdateOrderInput>;

export const ORDER_SORT_FIELDS = ["date", "createdAt", "updatedAt", "total"] as const;

export const ZOrderLineDto = z.object({
  id: z.uuid(),
  position: z.number().int(),
  productId: z.uuid(),
  quantity: z.string(),
  unitPrice: z.string(),
  /** quantity × unitPrice, rounded half up to minor units. */
  amount: z.string(),
});

export const ZOrderDto = z.object({
  id: z.uuid(),
  kind: z.enum(ORDER_KINDS),
  status: z.enum(ORDER_STATUSES),
  locationId: z.uuid(),
  clientId: z.uuid().nullable(),
  currency: z.string(),
  date: z.string(),
  note: z.string(),
  total: z.string(),
  createdBy: z.uuid(),
  confirmedAt: z.iso.datetime().nullable(),
  fulfilledAt: z.iso.datetime().nullable(),
  cancelledAt: z.iso.datetime().nullable(),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
  lines: z.array(ZOrderLineDto),
});
export type TOrderDto = z.infer<typeof ZOrderDto>;
