import { protectAuditFields, registerPermissions } from "@hisob/kernel";

/** The HRM module's permissions; the `admin` role of every organization gets them at start. */
export const HRM_PERMISSIONS = registerPermissions("hrm", {
  "employees:create:all": "Create employee records",
  "employees:read:all": "Read employee records (without salaries)",
  "employees:update:all": "Update employee records (not salaries)",
  "employees:delete:all": "Delete employee records",
  "salaries:read:all": "See employees' salaries",
  "salaries:update:all": "Set and change employees' salaries",
});

/** The audit log records salary changes; only readers who may see salaries see their amounts. */
protectAuditFields("employee", "salaries:read:all", ["salary", "salaryCurrency"]);
