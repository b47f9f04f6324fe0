import { ZCurrencyCode, ZIsoDate, ZLine, ZMinorAmount, ZRequiredLine } from "@hisob/kernel/schema";
import { z } from "zod";

const ZSalary = ZMinorAmount.refine((amount) => !amount.startsWith("-"), { message: "must not be negative" });
const ZUuid = z.uuid().transform((id) => id.toLowerCase());

export const ZCreateEmployeeInput = z
  .object({
    firstName: ZRequiredLine(100),
    lastName: ZRequiredLine(100),
    position: ZLine(200).default(""),
    department: ZLine(200).default(""),
    hireDate: ZIsoDate,
    /** Monthly, minor units of salaryCurrency; needs salaries:update:all. */
    salary: ZSalary.optional(),
    salaryCurrency: ZCurrencyCode.optional(),
    userId: ZUuid.nullable().default(null),
    active: z.boolean().default(true),
  })
  .strict()
  .refine((input) => (input.salary === undefined) === (input.salaryCurrency === undefined), {
    message: "salary and salaryCurrency go together",
    path: ["salaryCurrency"],
  });
export type TCreateEmployeeInput = z.input<typeof ZCreateEmployeeInput>;

export const ZUpdateEmployeeInput = z
  .object({
    firstName: ZRequiredLine(100).optional(),
    lastName: ZRequiredLine(100).optional(),
    position: ZLine(200).optional(),
    department: ZLine(200).optional(),
    hireDate: ZIsoDate.optional(),
    salary: ZSalary.nullable().optional(),
    salaryCurrency: ZCurrencyCode.nullable().optional(),
    userId: ZUuid.nullable().optional(),
    active: z.boolean().optional(),
  })
  .strict()
  .refine((input) => (input.salary === undefined) === (input.salaryCurrency === undefined), {
    message: "salary and salaryCurrency go together",
    path: ["salaryCurrency"],
  })
  .refine((input) => (input.salary === null) === (input.salaryCurrency === null), {
    message: "salary and salaryCurrency are cleared together",
    path: ["salaryCurrency"],
  });
export type TUpdateEmployeeInput = z.input<typeof ZUpdateEmployeeInput>;

/** Salary is deliberately not sortable or filterable: an order by salary would reveal it. */
export const EMPLOYEE_SORT_FIELDS = ["lastName", "firstName", "hireDate", "department", "createdAt"] as const;

export const ZEmployeeDto = z.object({
  id: z.uuid(),
  firstName: z.string(),
  lastName: z.string(),
  position: z.string(),
  department: z.string(),
  hireDate: z.string(),
  /** null without salaries:read:all, or when not recorded. */
  salary: z.string().nullable(),
  salaryCurrency: z.string().nullable(),
  userId: z.uuid().nullable(),
  active: z.boolean(),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});
export type TEmployeeDto = z.infer<typeof ZEmployeeDto>;
