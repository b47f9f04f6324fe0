import { createRecordService, crudPermissions, existsIn, type RecordDeps } from "@hisob/crud";
import type { Prisma, Tx } from "@hisob/db";
import { AppError } from "@hisob/kernel";
import { dateOf, toIsoDate } from "@hisob/kernel/schema";
import {
  PROJECT_SORT_FIELDS,
  type TProjectDto,
  ZCreateProjectInput,
  ZUpdateProjectInput,
} from "./projects.schema";

const projectSelect = {
  id: true,
  name: true,
  clientId: true,
  budget: true,
  currencyCode: true,
  startDate: true,
  endDate: true,
  status: true,
  createdAt: true,
  updatedAt: true,
} satisfies Prisma.ProjectSelect;

type ProjectRow = Prisma.ProjectGetPayload<{ select: typeof projectSelect }>;

const day = (date: Date | null) => (date ? toIsoDate(date) : null);

const selectedCurrency = async (tx: Tx, tenantId: string, code: string) =>
  (await tx.tenantCurrency.count({ where: { tenantId, currencyCode: code } })) > 0;

const fieldError = (field: string, reason: string, problem: string) =>
  new AppError("VALIDATION_ERROR", {
    reason,
    message: `validation error: ${field} ${problem}`,
    params: { issues: [{ path: field, message: problem }] },
  });

/** Projects, optionally for a CRM client, with a budget in one of the organization's currencies. */
export const createProjectsService = (deps: RecordDeps) =>
  createRecordService(
    {
      name: "Project",
      auditEntity: "project",
      missing: { reason: "projects.project_not_found", message: "Project not found" },
      permissions: crudPermissions("projects"),
      model: (tx) => tx.project,
      select: projectSelect,
      toDto: ({ currencyCode, budget, ...row }: ProjectRow): TProjectDto => ({
        ...row,
        budget: budget.toString(),
        currency: currencyCode,
        startDate: day(row.startDate),
        endDate: day(row.endDate),
        createdAt: row.createdAt.toISOString(),
        updatedAt: row.updatedAt.toISOString(),
      }),
      createInput: ZCreateProjectInput,
      updateInput: ZUpdateProjectInput,
      sortFields: PROJECT_SORT_FIELDS,
      filters: {
        name: { kind: "string" },
        status: { kind: "enum", values: ["planned", "active", "on_hold", "completed", "cancelled"] },
        clientId: { kind: "uuid", operators: ["eq", "in"] },
        currency: { kind: "string", column: "currencyCode", operators: ["eq", "in"] },
        startDate: { kind: "date" },
        endDate: { kind: "date" },
      },
      references: {
        clientId: { label: "Client", reason: "crm.client_not_found", exists: existsIn((tx) => tx.crmClient) },
        currency: {
          label: "Currency",
          reason: "projects.currency_not_selected",
          exists: selectedCurrency,
          refuse: (field) =>
            fieldError(
              field,
              "projects.currency_not_selected",
              "is not one of the organization's currencies",
            ),
        },
      },
      toData: ({ currency, budget, startDate, endDate, ...input }) => ({
        ...input,
        ...(currency === undefined ? {} : { currencyCode: currency }),
        ...(budget === undefined ? {} : { budget: BigInt(budget as string) }),
        ...(startDate === undefined
          ? {}
          : { startDate: startDate === null ? null : dateOf(startDate as string) }),
        ...(endDate === undefined ? {} : { endDate: endDate === null ? null : dateOf(endDate as string) }),
      }),
      beforeUpdate: (_tx, _ctx, current, input) => {
        const start = input.startDate === undefined ? day(current.startDate) : input.startDate;
        const end = input.endDate === undefined ? day(current.endDate) : input.endDate;
        if (start && end && end < start) {
          throw fieldError("endDate", "projects.end_before_start", "must not be before startDate");
        }
      },
    },
    deps,
  );

export type ProjectsService = ReturnType<typeof createProjectsService>;
