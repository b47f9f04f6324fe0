export * from "./employees/employees.schema";
export { hrmOperations } from "./hrm.operations";
export { HRM_PERMISSIONS } from "./hrm.permissions";
export { createHrmServices, type HrmServices } from "./hrm-services";
