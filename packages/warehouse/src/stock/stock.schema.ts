import { ZQuantityChange, ZRequiredLine } from "@hisob/kernel/schema";
import { z } from "zod";

const ZUuid = z.uuid().transform((id) => id.toLowerCase());

/** A stocktake correction: signed change of one product's quantity at one location, with the reason. */
export const ZAdjustStockInput = z
  .object({
    productId: ZUuid,
    locationId: ZUuid,
    change: ZQuantityChange,
    reason: ZRequiredLine(500),
  })
  .strict();
export type TAdjustStockInput = z.input<typeof ZAdjustStockInput>;

export const ZStockLevelDto = z.object({
  productId: z.uuid(),
  locationId: z.uuid(),
  /** Exact decimal string without trailing zeros. */
  quantity: z.string(),
  updatedAt: z.iso.datetime(),
});
export type TStockLevelDto = z.infer<typeof ZStockLevelDto>;
