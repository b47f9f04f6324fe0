import { ZRequiredLine } from "@hisob/kernel/schema";
import { z } from "zod";

const ZCode = ZRequiredLine(32).refine((code) => /^[\p{L}\p{N}._-]+$/u.test(code), {
  message: "must contain only letters, digits and . _ -",
});

export const ZCreateLocationInput = z.object({ code: ZCode, name: ZRequiredLine(200) }).strict();
export type TCreateLocationInput = z.input<typeof ZCreateLocationInput>;
export const ZUpdateLocationInput = z
  .object({ code: ZCode.optional(), name: ZRequiredLine(200).optional() })
  .strict();
export type TUpdateLocationInput = z.input<typeof ZUpdateLocationInput>;

export const LOCATION_SORT_FIELDS = ["code", "name", "createdAt"] as const;

export const ZLocationDto = z.object({
  id: z.uuid(),
  code: z.string(),
  name: z.string(),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});
export type TLocationDto = z.infer<typeof ZLocationDto>;
