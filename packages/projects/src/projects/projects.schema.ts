import { ZCurrencyCode, ZIsoDate, ZMinorAmount, ZRequiredLine } from "@hisob/kernel/schema";
import { z } from "zod";

export const PROJECT_STATUSES = ["planned", "active", "on_hold", "completed", "cancelled"] as const;

const ZBudget = ZMinorAmount.refine((amount) => !amount.startsWith("-"), { message: "must not be negative" });
const ZUuid = z.uuid().transform((id) => id.toLowerCase());

export const ZCreateProjectInput = z
  .object({
    name: ZRequiredLine(200),
    clientId: ZUuid.nullable().default(null),
    budget: ZBudget.default("0"),
    currency: ZCurrencyCode,
    startDate: ZIsoDate.nullable().default(null),
    endDate: ZIsoDate.nullable().default(null),
    status: z.enum(PROJECT_STATUSES).default("planned"),
  })
  .strict()
  .refine((project) => !project.startDate || !project.endDate || project.endDate >= project.startDate, {
    message: "must not be before startDate",
    path: ["endDate"],
  });
export type TCreateProjectInput = z.input<typeof ZCreateProjectInput>;

export const ZUpdateProjectInput = z
  .object({
    name: ZRequiredLine(200).optional(),
    clientId: ZUuid.nullable().optional(),
    budget: ZBudget.optional(),
    currency: ZCurrencyCode.optional(),
    startDate: ZIsoDate.nullable().optional(),
    endDate: ZIsoDate.nullable().optional(),
    status: z.enum(PROJECT_STATUSES).optional(),
  })
  .strict();
export type TUpdateProjectInput = z.input<typeof ZUpdateProjectInput>;

export const PROJECT_SORT_FIELDS = [
  "name",
  "startDate",
  "endDate",
  "budget",
  "createdAt",
  "updatedAt",
] as const;

export const ZProjectDto = z.object({
  id: z.uuid(),
  name: z.string(),
  clientId: z.uuid().nullable(),
  budget: z.string(),
  currency: z.string(),
  startDate: z.string().nullable(),
  endDate: z.string().nullable(),
  status: z.enum(PROJECT_STATUSES),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});
export type TProjectDto = z.infer<typeof ZProjectDto>;
