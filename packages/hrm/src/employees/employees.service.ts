import { createRecordService, crudPermissions, existsIn, type RecordDeps } from "@hisob/crud";
import type { Prisma, Tx } from "@hisob/db";
import { AppError, requirePermission, type TenantContext } from "@hisob/kernel";
import { dateOf, toIsoDate } from "@hisob/kernel/schema";
import {
  EMPLOYEE_SORT_FIELDS,
  type TEmployeeDto,
  ZCreateEmployeeInput,
  ZUpdateEmployeeInput,
} from "./employees.schema";

const employeeSelect = {
  id: true,
  firstName: true,
  lastName: true,
  position: true,
  department: true,
  hireDate: true,
  salary: true,
  salaryCurrency: true,
  userId: true,
  isActive: true,
  createdAt: true,
  updatedAt: true,
} satisfies Prisma.EmployeeSelect;

type EmployeeRow = Prisma.EmployeeGetPayload<{ select: typeof employeeSelect }>;

const selectedCurrency = async (tx: Tx, tenantId: string, code: string) =>
  (await tx.tenantCurrency.count({ where: { tenantId, currencyCode: code } })) > 0;

/** Writing a salary needs its own permission, on top of creating or updating the employee. */
const guardSalary = (ctx: TenantContext, input: { salary?: unknown; salaryCurrency?: unknown }) => {
  if (input.salary !== undefined || input.salaryCurrency !== undefined)
    requirePermission(ctx, "salaries:update:all");
};

/**
 * Employees. The salary is part of the record but only callers holding `salaries:read:all` see it (null
 * for everyone else, in lists, reads and write answers alike), and only `salaries:update:all` sets it.
 */
export const createEmployeesService = (deps: RecordDeps) =>
  createRecordService(
    {
      name: "Employee",
      auditEntity: "employee",
      missing: { reason: "hrm.employee_not_found", message: "Employee not found" },
      permissions: crudPermissions("employees"),
      model: (tx) => tx.employee,
      select: employeeSelect,
      toDto: ({ isActive, salary, hireDate, ...row }: EmployeeRow): TEmployeeDto => ({
        ...row,
        hireDate: toIsoDate(hireDate),
        salary: salary === null ? null : salary.toString(),
        active: isActive,
        createdAt: row.createdAt.toISOString(),
        updatedAt: row.updatedAt.toISOString(),
      }),
      view: (ctx, dto) =>
        ctx.actor.permissions.has("salaries:read:all") ? dto : { ...dto, salary: null, salaryCurrency: null },
      createInput: ZCreateEmployeeInput,
      updateInput: ZUpdateEmployeeInput,
      sortFields: EMPLOYEE_SORT_FIELDS,
      filters: {
        firstName: { kind: "string" },
        lastName: { kind: "string" },
        position: { kind: "string" },
        department: { kind: "string" },
        hireDate: { kind: "date" },
        active: { kind: "boolean", column: "isActive" },
        userId: { kind: "uuid", operators: ["eq"] },
      },
      references: {
        userId: { label: "User", reason: "user.not_found", exists: existsIn((tx) => tx.user) },
        salaryCurrency: {
          label: "Currency",
          reason: "hrm.currency_not_selected",
          exists: selectedCurrency,
          refuse: (field) =>
            new AppError("VALIDATION_ERROR", {
              reason: "hrm.currency_not_selected",
              message: `validation error: ${field} is not one of the organization's currencies`,
              params: { issues: [{ path: field, message: "is not one of the organization's currencies" }] },
            }),
        },
      },
      toData: ({ active, hireDate, salary, ...input }) => ({
        ...input,
        ...(active === undefined ? {} : { isActive: active }),
        ...(hireDate === undefined ? {} : { hireDate: dateOf(hireDate as string) }),
        ...(salary === undefined ? {} : { salary: salary === null ? null : BigInt(salary as string) }),
      }),
      beforeCreate: (_tx, ctx, input) => guardSalary(ctx, input),
      beforeUpdate: (_tx, ctx, _current, input) => guardSalary(ctx, input),
      conflicts: {
        unique: {
          reason: "hrm.user_already_employee",
          message: "Another employee record is linked to this user",
        },
      },
    },
    deps,
  );

export type EmployeesService = ReturnType<typeof createEmployeesService>;
