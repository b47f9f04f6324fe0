import { ZIsoDate, ZRequiredLine } from "@hisob/kernel/schema";
import { z } from "zod";

export const MAX_STAGES = 200;

export const ZAddStageInput = z
  .object({
    name: ZRequiredLine(200),
    dueDate: ZIsoDate.nullable().default(null),
    /** Where to insert it (0 = first); default: last. */
    position: z.number().int().min(0).max(MAX_STAGES).optional(),
  })
  .strict();
export type TAddStageInput = z.input<typeof ZAddStageInput>;

/** A stage's own fields; its place changes only through reorder. */
export const ZUpdateStageInput = z
  .object({
    name: ZRequiredLine(200).optional(),
    dueDate: ZIsoDate.nullable().optional(),
    done: z.boolean().optional(),
  })
  .strict();
export type TUpdateStageInput = z.input<typeof ZUpdateStageInput>;

/** Every stage of the project exactly once, in the new order. */
export const ZReorderStagesInput = z
  .object({
    stageIds: z
      .array(z.uuid().transform((id) => id.toLowerCase()))
      .min(1)
      .max(MAX_STAGES),
  })
  .strict();
export type TReorderStagesInput = z.input<typeof ZReorderStagesInput>;

export const ZStageDto = z.object({
  id: z.uuid(),
  projectId: z.uuid(),
  name: z.string(),
  position: z.number().int(),
  dueDate: z.string().nullable(),
  done: z.boolean(),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});
export type TStageDto = z.infer<typeof ZStageDto>;
