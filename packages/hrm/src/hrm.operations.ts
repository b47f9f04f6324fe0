import { crudPermissions, recordOperationsOf } from "@hisob/crud";
import {
  EMPLOYEE_SORT_FIELDS,
  ZCreateEmployeeInput,
  ZEmployeeDto,
  ZUpdateEmployeeInput,
} from "./employees/employees.schema";
import type { HRM_PERMISSIONS } from "./hrm.permissions";
import type { HrmServices } from "./hrm-services";

type HrmPermission = (typeof HRM_PERMISSIONS)[number];
const records = recordOperationsOf<HrmServices, HrmPermission>();

/** The HRM module's operations: REST routes, OpenAPI and tRPC procedures are derived from them. */
export const hrmOperations = {
  employees: records({
    path: "/hrm/employees",
    tag: "hrm: employees",
    service: (services) => services.employees,
    sortFields: EMPLOYEE_SORT_FIELDS,
    schemas: { create: ZCreateEmployeeInput, update: ZUpdateEmployeeInput, item: ZEmployeeDto },
    permissions: crudPermissions("employees"),
    summaries: {
      list: "List employees (salaries only with salaries:read:all, else null)",
      get: "Get an employee (the salary only with salaries:read:all, else null)",
      create: "Create an employee record (a salary also needs salaries:update:all)",
      update: "Change an employee record (a salary also needs salaries:update:all)",
      delete: "Delete an employee record",
    },
  }),
};
