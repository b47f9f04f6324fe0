import { ZIsoDate } from "@hisob/kernel/schema";
import { z } from "zod";

/** The day the organization's books are closed through (docs/decisions/0094-closed-periods.md). */
export const ZClosedPeriodDto = z
  .object({
    lockDate: z.iso
      .date()
      .nullable()
      .describe(
        "Nothing dated on or before this day can be created, changed, reversed or deleted; null: none",
      ),
    canMove: z.boolean().describe("Whether the caller may move it (holds periods:update:all)"),
  })
  .meta({ id: "ClosedPeriod" });
export type TClosedPeriodDto = z.infer<typeof ZClosedPeriodDto>;

export const ZSetClosedPeriodInput = z.strictObject({
  lockDate: ZIsoDate.nullable().describe(
    "The last closed day (not after today); null opens every period again. Earlier than before reopens the days between",
  ),
});
export type TSetClosedPeriodInput = z.input<typeof ZSetClosedPeriodInput>;
