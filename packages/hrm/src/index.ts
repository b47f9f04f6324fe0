export * from "./employees/employees.schema";
export { HRM_PERMISSIONS } from "./hrm.permissions";
export { createHrmServices, type HrmServices } from "./hrm-services";
